/** Who a console write is by, as the content's versions record it. */
import type { FastifyRequest } from "fastify";
import type { Author } from "../content/editing.ts";

export function authorOf(request: FastifyRequest): Author {
  const user = request.user;
  if (!user) throw new Error("a console route ran without its signed-in person");
  return { userId: user.id, recordedAs: user.email };
}

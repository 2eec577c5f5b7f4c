/** Who a change is by: a console user, or a tool (the import); and who a console write is by. */
import type { FastifyRequest } from "fastify";

/** Who a change is by, as its record keeps it. */
export interface Author {
  userId: number | null;
  /** What the record shows: the person's e-mail address, or the tool that made the change. */
  recordedAs: string;
}

export function authorOf(request: FastifyRequest): Author {
  const user = request.user;
  if (!user) throw new Error("a console route ran without its signed-in person");
  return { userId: user.id, recordedAs: user.email };
}

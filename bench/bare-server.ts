/**
 * The yardstick of bench:http: a bare Fastify server that answers each path
 * with the bytes our server sent for it, from memory, with no hooks or plugins.
 * Reads { path: { type, body (base64) } } from the JSON file named in argv[2].
 */
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const answers = JSON.parse(readFileSync(String(process.argv[2]), "utf8")) as Record<
  string,
  { type: string; body: string }
>;
const app = Fastify({ logger: false });
for (const [path, { type, body }] of Object.entries(answers)) {
  const bytes = Buffer.from(body, "base64");
  app.get(path.split("?")[0] ?? path, (_request, reply) => reply.type(type).send(bytes));
}
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
console.log("bare server ready");

import Fastify from "fastify";
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import apiContract from "../../../src/server/platform/http/api-contract.ts";
import { messageSchema } from "../../../src/shared/schemas.ts";

async function appWithContract() {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(apiContract);
  return app;
}

describe("the API contract", () => {
  it("refuses to start with an API route that declares no success answer", async () => {
    const app = await appWithContract();
    await expect(async () => {
      app.get("/api/v1/loose", async () => ({ message: "hi" }));
      await app.ready();
    }).rejects.toThrow("GET /api/v1/loose declares no response schema for its success answer");
  });

  it("sends only the fields a route's response schema names", async () => {
    const app = await appWithContract();
    app.get("/api/v1/strict", { schema: { response: { 200: messageSchema } } }, async () => ({
      message: "hi",
      password_hash: "leaked?",
    }));
    const response = await app.inject({ url: "/api/v1/strict" });
    expect(response.json()).toEqual({ message: "hi" });
    await app.close();
  });

  it("leaves routes outside /api/ alone", async () => {
    const app = await appWithContract();
    app.get("/healthz-like", async () => ({ ok: true }));
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });
});

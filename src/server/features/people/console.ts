/**
 * The console's people routes (owner only): the accounts, invitations by
 * e-mail, roles, removals and the "second factor for everyone" setting. The
 * audit log's and each person's own account routes are registered from here
 * too (audit-routes.ts, account.ts).
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  inviteSchema,
  PEOPLE_PATHS,
  PEOPLE_TEXTS,
  peopleListSchema,
  personParamsSchema,
  personSchema,
  roleChangeSchema,
  secondFactorSettingSchema,
} from "../../../shared/admin/people.ts";
import { messageSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { type ConsoleUser, ensureUser, findUserById } from "../../platform/console/users.ts";
import type { OutboxTransaction } from "../../platform/outbox/queue.ts";
import { refuse } from "../../platform/refusal.ts";
import accountRoutes from "./account-console.ts";
import auditRoutes from "./audit-console.ts";
import {
  changeRole,
  findPerson,
  listPeople,
  removePerson,
  setSecondFactorRequired,
} from "./queries.ts";
import type { PeopleSettings } from "./server-settings.ts";
import { NO_CONTENT } from "./sign-in-routes.ts";
import { issueUserToken } from "./user-tokens.ts";

const OWNER = { role: "owner" } as const;

export default async function peopleRoutes(
  app: FastifyInstance,
  options: AdminAreaOptions<PeopleSettings>,
) {
  const { database } = options;
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  await app.register(accountRoutes, options);
  await app.register(auditRoutes, options);

  async function personById(id: number) {
    const person = await findPerson(db, id);
    if (!person) throw refuse.notFound(PEOPLE_TEXTS.notFound);
    return person;
  }

  function refusal(reason: "missing" | "last-owner") {
    return reason === "missing"
      ? refuse.notFound(PEOPLE_TEXTS.notFound)
      : refuse.conflict(PEOPLE_TEXTS.lastOwner);
  }

  /** The mail names whoever sends it this time, so a re-sent one is from whoever re-sent it. */
  async function sendInvitation(trx: OutboxTransaction, user: ConsoleUser, sender: ConsoleUser) {
    const token = await issueUserToken(trx, user.id, "invite");
    const invitation = { to: user.email, role: user.role, inviter: sender };
    await app.accountMail.invitation(trx, invitation, token);
  }

  routes.get(
    PEOPLE_PATHS.people,
    { schema: { response: { 200: peopleListSchema } }, config: OWNER },
    async () => ({ people: await listPeople(db) }),
  );

  routes.post(
    PEOPLE_PATHS.people,
    {
      schema: { body: inviteSchema, response: { 201: personSchema } },
      config: { ...OWNER, rateLimit: { max: 20, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      // The account and its invitation are made together, or neither is.
      const user = await app.consoleWrite(request, "person-invited", async (trx, audit) => {
        const { user, created } = await ensureUser(trx, request.body);
        if (!created) throw refuse.conflict(PEOPLE_TEXTS.alreadyInvited);
        await sendInvitation(trx, user, request.user as ConsoleUser);
        audit.subject = user.email;
        audit.detail = { role: user.role };
        return user;
      });
      return reply.code(201).send(await personById(user.id));
    },
  );

  routes.post(
    PEOPLE_PATHS.invitation,
    {
      schema: { params: personParamsSchema, response: { 202: messageSchema } },
      config: { ...OWNER, rateLimit: { max: 20, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const user = await findUserById(db, request.params.id);
      if (!user) throw refuse.notFound(PEOPLE_TEXTS.notFound);
      if (user.passwordHash !== null) throw refuse.conflict(PEOPLE_TEXTS.alreadyAccepted);
      await app.consoleWrite(request, "invitation-resent", async (trx, audit) => {
        await sendInvitation(trx, user, request.user as ConsoleUser);
        audit.subject = user.email;
      });
      return reply.code(202).send({ message: PEOPLE_TEXTS.invitationSent });
    },
  );

  routes.patch(
    PEOPLE_PATHS.person,
    {
      schema: {
        params: personParamsSchema,
        body: roleChangeSchema,
        response: { 200: personSchema },
      },
      config: OWNER,
    },
    async (request) => {
      const { role } = request.body;
      await app.consoleWrite(request, "role-changed", async (trx, audit) => {
        const change = await changeRole({ ...database, db: trx }, request.params.id, role);
        if ("refused" in change) throw refusal(change.refused);
        const { email, from } = change.done;
        // The role it had already: written, but nothing changed to record.
        audit.unchanged = from === role;
        audit.subject = email;
        audit.detail = { from, to: role };
      });
      return personById(request.params.id);
    },
  );

  routes.delete(
    PEOPLE_PATHS.person,
    { schema: { params: personParamsSchema, response: NO_CONTENT }, config: OWNER },
    async (request, reply) => {
      await app.consoleWrite(request, "person-removed", async (trx, audit) => {
        const removal = await removePerson({ ...database, db: trx }, request.params.id);
        if ("refused" in removal) throw refusal(removal.refused);
        const { email, role } = removal.done;
        audit.subject = email;
        audit.detail = { role };
      });
      return reply.code(204).send(null);
    },
  );

  routes.get(
    PEOPLE_PATHS.secondFactorSetting,
    { schema: { response: { 200: secondFactorSettingSchema } }, config: OWNER },
    async () => ({ required: await app.secondFactorRequired() }),
  );

  routes.put(
    PEOPLE_PATHS.secondFactorSetting,
    {
      schema: { body: secondFactorSettingSchema, response: { 200: secondFactorSettingSchema } },
      config: OWNER,
    },
    async (request) => {
      const { required } = request.body;
      if (required && !(request.user as ConsoleUser).secondFactor) {
        throw refuse.conflict(PEOPLE_TEXTS.ownSecondFactorFirst);
      }
      if (required !== (await app.secondFactorRequired())) {
        await app.consoleWrite(request, "second-factor-requirement", async (trx, audit) => {
          await setSecondFactorRequired(trx, required);
          audit.detail = { required };
        });
      }
      return { required };
    },
  );
}

/**
 * The console's Audience area (viewers and up): the period's figures beside
 * the period before, a breakdown at a time, the goals, the visitors of the
 * last minutes, and a CSV of any of its tables; editors add and remove page
 * goals. Reading the figures changes nothing, so only an export and a
 * goal's change are audited (an export takes them out of the console).
 */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Period } from "../../../shared/admin/audience.ts";
import {
  AUDIENCE_PATHS,
  type BreakdownRow,
  breakdownQuerySchema,
  breakdownSchema,
  type ExportTable,
  exportQuerySchema,
  GOAL_TEXTS,
  goalIdSchema,
  goalSchema,
  goalsSchema,
  liveSchema,
  newGoalSchema,
  overviewSchema,
  rangeQuerySchema,
  WITH_LEADS,
} from "../../../shared/admin/audience.ts";
import { fieldRefusalSchema, messageSchema } from "../../../shared/schemas.ts";
import type { AdminAreaOptions } from "../../platform/console/area.ts";
import { sendCsv } from "../../platform/console/csv.ts";
import type { Database } from "../../platform/db/schema.ts";
import { refuse } from "../../platform/refusal.ts";
import { breakdownOf, cappedDays, hourlySeries, periodFigures, rateOf } from "./figures.ts";
import { addGoal, goalFigures, removeGoal } from "./goals.ts";
import { periodFor, previousOf } from "./periods.ts";
import type { AudienceSettings } from "./server-settings.ts";

export interface AudienceAreaOptions extends AdminAreaOptions<AudienceSettings> {
  /** The clock a named range ends by (epoch ms). */
  now: () => number;
}

/** A CSV's rows and columns for one of the area's tables. */
async function exportRows(
  db: Kysely<Database>,
  table: ExportTable,
  period: Period,
): Promise<{ rows: Record<string, unknown>[]; columns: string[] }> {
  if (table === "daily") {
    const { series } = await periodFigures(db, period);
    return { rows: series, columns: ["day", "visitors", "views", "visits"] };
  }
  if (table === "hourly") {
    return {
      rows: await hourlySeries(db, period),
      columns: ["hour", "visitors", "views", "visits"],
    };
  }
  if (table === "funnel") {
    const { funnel } = await periodFigures(db, period);
    const steps = [
      { step: "landing", visits: funnel.landing },
      { step: "contact page", visits: funnel.contact },
      { step: "inquiry", visits: funnel.inquiries },
    ];
    return {
      rows: steps.map((row) => ({ ...row, share_of_landing: rateOf(row.visits, funnel.landing) })),
      columns: ["step", "visits", "share_of_landing"],
    };
  }
  const { rows } = await breakdownOf(db, table, period, null);
  const flat = rows.map((row: BreakdownRow) => ({
    value: row.value,
    title: row.issue?.title,
    clicks: row.issue?.clicks,
    visitors: row.visitors,
    views: row.views,
    visits: row.visits,
    inquiries: row.leads?.inquiries,
    subscriptions: row.leads?.subscriptions,
    conversion_rate: row.leads?.rate,
  }));
  const columns = [
    "value",
    ...(table === "insight" ? ["title", "clicks"] : []),
    "visitors",
    "views",
    "visits",
  ];
  if (WITH_LEADS.includes(table)) columns.push("inquiries", "subscriptions", "conversion_rate");
  return { rows: flat, columns };
}

export default async function audienceRoutes(
  app: FastifyInstance,
  { database, now }: AudienceAreaOptions,
) {
  const { db } = database;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    AUDIENCE_PATHS.overview,
    {
      schema: { querystring: rangeQuerySchema, response: { 200: overviewSchema } },
      config: { role: "viewer" },
    },
    async (request) => {
      const period = periodFor(request.query, now());
      const previousPeriod = previousOf(period);
      const [current, previous] = await Promise.all([
        periodFigures(db, period),
        periodFigures(db, previousPeriod),
      ]);
      return {
        period,
        previousPeriod,
        totals: current.totals,
        previous: previous.totals,
        series: current.series,
        hours: current.hours,
        funnel: current.funnel,
        previousFunnel: previous.funnel,
      };
    },
  );

  routes.get(
    AUDIENCE_PATHS.breakdown,
    {
      schema: { querystring: breakdownQuerySchema, response: { 200: breakdownSchema } },
      config: { role: "viewer" },
    },
    async (request) => {
      const { dimension, limit } = request.query;
      const period = periodFor(request.query, now());
      const [{ rows, values }, capped] = await Promise.all([
        breakdownOf(db, dimension, period, limit),
        cappedDays(db, dimension, period),
      ]);
      return { dimension, period, rows, values, capped };
    },
  );

  routes.get(
    AUDIENCE_PATHS.live,
    { schema: { response: { 200: liveSchema } }, config: { role: "viewer" } },
    async () => ({
      visitors: await app.audience.recentVisitors(),
      counting: app.audience.counting,
    }),
  );

  routes.get(
    AUDIENCE_PATHS.goals,
    {
      schema: { querystring: rangeQuerySchema, response: { 200: goalsSchema } },
      config: { role: "viewer" },
    },
    async (request) => {
      const period = periodFor(request.query, now());
      return { period, ...(await goalFigures(db, period)) };
    },
  );

  routes.post(
    AUDIENCE_PATHS.goals,
    {
      schema: {
        body: newGoalSchema,
        response: { 201: goalSchema, 400: fieldRefusalSchema, 409: fieldRefusalSchema },
      },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const goal = await app.consoleWrite(request, "audience-goal-added", async (trx, audit) => {
        const added = await addGoal(trx, request.body.path);
        if (added === "taken") {
          throw refuse.conflict(GOAL_TEXTS.pathTaken, { path: GOAL_TEXTS.pathTaken });
        }
        if (added === "full")
          throw refuse.conflict(GOAL_TEXTS.tooMany, { path: GOAL_TEXTS.tooMany });
        audit.subject = `audience-goal:${added.id}`;
        audit.detail = { path: added.path };
        return added;
      });
      return reply.code(201).send(goal);
    },
  );

  routes.delete(
    AUDIENCE_PATHS.goal(":id"),
    {
      schema: { params: goalIdSchema, response: { 204: z.null(), 404: messageSchema } },
      config: { role: "editor" },
    },
    async (request, reply) => {
      const { id } = request.params;
      await app.consoleWrite(request, "audience-goal-removed", async (trx, audit) => {
        if (!(await removeGoal(trx, id))) throw refuse.notFound(GOAL_TEXTS.notFound);
        audit.subject = `audience-goal:${id}`;
      });
      return reply.code(204).send(null);
    },
  );

  routes.get(
    AUDIENCE_PATHS.export,
    {
      schema: { querystring: exportQuerySchema, response: { 200: z.string() } },
      config: { role: "viewer" },
    },
    async (request, reply) => {
      const { table } = request.query;
      const period = periodFor(request.query, now());
      const { rows, columns } = await exportRows(db, table, period);
      await app.auditNoChange(request, "audience-exported", undefined, {
        table,
        from: period.from,
        to: period.to,
        rows: rows.length,
      });
      return sendCsv(reply, `audience-${table}-${period.from}-${period.to}.csv`, rows, columns);
    },
  );
}

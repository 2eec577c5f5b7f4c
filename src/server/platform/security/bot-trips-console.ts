/** The console's count of the posts the forms' traps turned away (ADR 017); viewers may read it. */
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  DEFENCE_PATHS,
  DEFENCE_WINDOW_DAYS,
  type DefenceTrips,
  defenceTripsSchema,
} from "../../../shared/admin/defences.ts";
import type { AdminAreaOptions } from "../console/area.ts";
import { tripsOfLastDays } from "./bot-trips.ts";

export default async function defencesRoutes(app: FastifyInstance, { database }: AdminAreaOptions) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      DEFENCE_PATHS.trips,
      { schema: { response: { 200: defenceTripsSchema } }, config: { role: "viewer" } },
      async () => ({
        days: DEFENCE_WINDOW_DAYS,
        // The table holds only the forms and reasons the traps write (shared/bot-defence.ts).
        trips: (await tripsOfLastDays(database.db, DEFENCE_WINDOW_DAYS)) as DefenceTrips["trips"],
      }),
    );
}

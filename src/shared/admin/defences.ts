/**
 * What the console shows of the forms' traps against scripts (ADR 017): how
 * many posts each turned away lately, per form and reason.
 */
import { z } from "zod";
import { DEFENDED_FORMS, TRAP_REASONS } from "../bot-defence.ts";
import { ADMIN_API } from "./auth.ts";
import type { RouteSlice } from "./route-entry.ts";

export const DEFENCE_PATHS = { trips: `${ADMIN_API}/defences` } as const;

/** How far back the console counts. */
export const DEFENCE_WINDOW_DAYS = 30;

export const defenceTripsSchema = z.object({
  days: z.number().int(),
  trips: z.array(
    z.object({
      form: z.enum(DEFENDED_FORMS),
      reason: z.enum(TRAP_REASONS),
      trips: z.number().int(),
    }),
  ),
});
export type DefenceTrips = z.infer<typeof defenceTripsSchema>;

/**
 * This area's entries of the console's route map (console-routes.ts):
 * What the forms' traps turned away lately.
 */
export const DEFENCE_CONSOLE_ROUTES = {
  "defences.trips": {
    method: "GET",
    path: DEFENCE_PATHS.trips,
    status: 200,
    response: defenceTripsSchema,
  },
} as const satisfies RouteSlice;

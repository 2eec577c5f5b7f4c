import type { Engine } from "../connection.ts";
import { type AnyDb, columnTypes } from "./shared.ts";

export async function up(db: AnyDb, engine: Engine): Promise<void> {
  // The pages the firm counts as goals in the Audience area, beside the
  // inquiry and the subscription: a path, once, in the order they were
  // added. What a goal's visits were is read from the page rollups, so a
  // goal added late counts back too.
  await columnTypes(engine)
    .withId(db.schema.createTable("audience_goals"))
    .addColumn("path", "text", (c) => c.notNull().unique())
    .execute();
}

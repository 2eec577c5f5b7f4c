import type { AnyDb } from "./shared.ts";

/** The menu's lines as the code held them until migration 024: frozen here, never edited. */
const MENU_LINES_BEFORE_024: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  capabilities: {
    "App Development": "Web and mobile apps your people actually use.",
    Automation: "Repetitive work handed over to software.",
    "Cloud Infrastructure": "Platforms that scale, stay up and cost less.",
    "Data Management": "One trusted source for every number.",
    "Digital Strategy": "Where technology pays off, and in what order.",
    "Machine Learning": "Models that learn from the data you already have.",
    "Predictive Analytics": "Next quarter's numbers, with a range you can plan on.",
    "Tech Stack Management": "Fewer tools, each one earning its place.",
  },
  industries: {
    Automotive: "Dealer, fleet and supply-chain data put to work.",
    Construction: "Bids, schedules and sites on one set of numbers.",
    "E-Commerce": "Targeting, pricing and demand, learned from orders.",
    Finance: "Cash, credit and receivables forecasts finance trusts.",
    Manufacturing: "Maintenance and quality predicted, not reacted to.",
  },
  techneeds: {
    "Third Party Software Integration": "Your tools passing data to each other, reliably.",
    "In House Development": "Software built around the way you work.",
  },
};

export async function up(db: AnyDb): Promise<void> {
  // The line the site's menu shows under an entry, written by the firm.
  // Empty: the menu shows the start of the entry's description. A site
  // seeded before keeps the lines its menu had, which were in the code.
  await db.schema
    .alterTable("content_items")
    .addColumn("menu_line", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  for (const [category, lines] of Object.entries(MENU_LINES_BEFORE_024)) {
    for (const [name, line] of Object.entries(lines)) {
      await db
        .updateTable("content_items")
        .set({ menu_line: line })
        .where("category", "=", category)
        .where("name", "=", name)
        .execute();
    }
  }
}

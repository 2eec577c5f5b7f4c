/**
 * Every repository path a document or a comment names between backticks
 * exists: README.md, SECURITY.md, docs/ and the comments of the code and
 * tests. A file moved or renamed leaves its old name behind in prose no
 * compiler reads, and a reader sent there finds nothing.
 *
 * A name counts as a path when it starts at one of the repository's top
 * folders and ends in a file extension or a slash. One holding `<`, `*`,
 * `NNN` or `$` is a pattern for many files (`src/server/features/<name>/`),
 * not a path, and is left alone. Comments are read with TypeScript's own
 * parser, and everything else with string searches: no pattern here can
 * backtrack.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const TOP_FOLDERS = [
  ".ci",
  "bench",
  "content",
  "deploy",
  "docs",
  "e2e",
  "public",
  "scripts",
  "src",
  "test",
];
const CODE_FOLDERS = ["bench", "e2e", "scripts", "src", "test"];
const CODE_EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js"];
const PATTERN_MARKS = ["<", "*", "NNN", "$"];
/** Files the operator writes beside the compose file (docs/operations/running-as-a-service.md): named, never committed. */
const OPERATORS_OWN = ["deploy/.env", "deploy/site.env"];

/** Every file under a folder of the repository, as a path from its root. */
function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(ROOT.length + 1));
}

/**
 * The text of every comment in a source file, found by TypeScript's parser:
 * the comments before and after each token of the file. Text between JSX
 * tags is no comment, whatever it holds, so none is read around it.
 */
function commentsOf(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const tokens: ts.Node[] = [];
  const collect = (node: ts.Node) => {
    const children = node.getChildren(file);
    if (children.length === 0) tokens.push(node);
    for (const child of children) collect(child);
  };
  collect(file);
  const ranges = tokens.flatMap((token, index) => {
    if (token.kind === ts.SyntaxKind.JsxText) return [];
    const before = ts.getLeadingCommentRanges(text, token.pos) ?? [];
    const next = tokens[index + 1];
    const after =
      next?.kind === ts.SyntaxKind.JsxText
        ? []
        : (ts.getTrailingCommentRanges(text, token.end) ?? []);
    return [...before, ...after];
  });
  // A comment between two tokens is after the one and before the other: read once.
  const endByStart = new Map(ranges.map((range) => [range.pos, range.end]));
  return [...endByStart].map(([start, end]) => text.slice(start, end));
}

/** The names between single backticks in a text: every second piece of it split at each backtick. */
function backticked(text: string): string[] {
  return text.split("`").filter((_, index) => index % 2 === 1);
}

/** A name read as a path from the repository's root, or undefined when it is none. */
function repositoryPath(name: string): string | undefined {
  if (name.trim() !== name || name.includes(" ") || name.includes("\n")) return undefined;
  if (PATTERN_MARKS.some((mark) => name.includes(mark))) return undefined;
  const anchor = name.indexOf("#");
  const path = anchor === -1 ? name : name.slice(0, anchor);
  const top = path.slice(0, path.indexOf("/"));
  if (!TOP_FOLDERS.includes(top)) return undefined;
  const last = path.slice(path.lastIndexOf("/") + 1);
  return path.endsWith("/") || last.includes(".") ? path : undefined;
}

/** Each document and source file, with the texts in it that may name paths. */
function namingTexts(): { where: string; texts: string[] }[] {
  const documents = [
    "README.md",
    "SECURITY.md",
    ...filesUnder("docs").filter((path) => path.endsWith(".md")),
  ];
  const sources = CODE_FOLDERS.flatMap(filesUnder).filter((path) =>
    CODE_EXTENSIONS.some((extension) => path.endsWith(extension)),
  );
  return [
    ...documents.map((where) => ({ where, texts: [readFileSync(join(ROOT, where), "utf8")] })),
    ...sources.map((where) => {
      const text = readFileSync(join(ROOT, where), "utf8");
      // Parsing is the slow part: a file that names no path between backticks needs none.
      const namesOne = TOP_FOLDERS.some((top) => text.includes(`\`${top}/`));
      return { where, texts: namesOne ? commentsOf(where, text) : [] };
    }),
  ];
}

describe("paths named in documents and comments", () => {
  it("reads a path only where one is named", () => {
    expect(backticked("see `src/server/app.ts` and `npm test`")).toEqual([
      "src/server/app.ts",
      "npm test",
    ]);
    expect(repositoryPath("src/server/app.ts")).toBe("src/server/app.ts");
    expect(repositoryPath("docs/operations/")).toBe("docs/operations/");
    expect(repositoryPath("docs/operations/mail.md#bounces")).toBe("docs/operations/mail.md");
    expect(repositoryPath("src/server/features/<name>/")).toBeUndefined();
    expect(repositoryPath("docs/decisions/NNN-what-was-decided.md")).toBeUndefined();
    expect(repositoryPath("src/shared")).toBeUndefined();
    expect(repositoryPath("node_modules/x/index.js")).toBeUndefined();
    expect(commentsOf("x.tsx", "// `a`\nconst x = <p>// `b`</p>; /* `c` */")).toEqual([
      "// `a`",
      "/* `c` */",
    ]);
  });

  it("names none that does not exist", () => {
    const missing = namingTexts().flatMap(({ where, texts }) =>
      texts
        .flatMap(backticked)
        .map(repositoryPath)
        .filter((path): path is string => path !== undefined && !OPERATORS_OWN.includes(path))
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${where}: ${path}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });
});

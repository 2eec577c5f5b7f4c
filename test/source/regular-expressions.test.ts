/**
 * No regular expression in src/ can backtrack: each one, wherever it is
 * written, is analysed by recheck, and one whose matching time can grow
 * faster than its input (polynomially or exponentially) fails this test.
 * Outside input reaches many of them, and a pattern that backtracks lets
 * one long line hold the server's only thread for minutes. A pattern built
 * at run time cannot be analysed, so it fails too: write it as a literal.
 * The tests beside the code (*.test.ts) are left out: they are never built
 * into what runs, and their patterns read the site's own answers.
 *
 * The checks are recheck's automaton analysis, then fuzzing with a fixed
 * seed, so a run gives the same answer each time.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { check } from "recheck";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SOURCES = join(ROOT, "src");

/** A pattern as written in the source, or a RegExp built from something else. */
interface Written {
  where: string;
  source: string;
  flags: string;
  /** Why it cannot be analysed, when it is built at run time. */
  dynamic?: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(?:ts|tsx|mts)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function literalText(node: ts.Node | undefined): string | undefined {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) {
    return node.text;
  }
  return undefined;
}

/** Every regular expression literal, and every `RegExp(…)` / `new RegExp(…)`, in one file's text. */
function patternsIn(fileName: string, text: string): Written[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: Written[] = [];
  const where = (node: ts.Node) =>
    `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText();
      const end = literal.lastIndexOf("/");
      found.push({
        where: where(node),
        source: literal.slice(1, end),
        flags: literal.slice(end + 1),
      });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "RegExp"
    ) {
      const [patternArgument, flagsArgument] = node.arguments ?? [];
      const source = literalText(patternArgument);
      const flags = flagsArgument === undefined ? "" : literalText(flagsArgument);
      if (source !== undefined && flags !== undefined) {
        found.push({ where: where(node), source, flags });
      } else {
        found.push({ where: where(node), source: "", flags: "", dynamic: node.getText() });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Null when the pattern cannot backtrack; else why it fails. */
async function judge(pattern: Written): Promise<string | null> {
  if (pattern.dynamic !== undefined) {
    return `${pattern.where} builds a pattern at run time, which cannot be analysed: ${pattern.dynamic}`;
  }
  const result = await check(pattern.source, pattern.flags, { timeout: 30_000, randomSeed: 0 });
  if (result.status === "safe") return null;
  const shown = `/${pattern.source}/${pattern.flags}`;
  if (result.status === "unknown") {
    return `${pattern.where} ${shown} could not be analysed (${JSON.stringify(result.error)})`;
  }
  return `${pattern.where} ${shown} takes ${result.complexity.summary} time, e.g. on ${result.attack.pattern}`;
}

describe("regular expressions", () => {
  it("finds literals, RegExp calls with literal arguments, and patterns built at run time", () => {
    const found = patternsIn(
      "probe.ts",
      'const a = /x+y/g;\nconst b = new RegExp("c+d", "i");\nconst c = RegExp(`e`);\nconst d = new RegExp(route + "$");\n',
    );
    expect(found.map(({ source, flags, dynamic }) => [source, flags, dynamic ?? null])).toEqual([
      ["x+y", "g", null],
      ["c+d", "i", null],
      ["e", "", null],
      ["", "", 'new RegExp(route + "$")'],
    ]);
  });

  it("fails a pattern that backtracks, and passes one that cannot", async () => {
    const nested = { where: "probe.ts:1", source: "^(a+)+$", flags: "" };
    expect(await judge(nested)).toMatch(/^probe\.ts:1 \/\^\(a\+\)\+\$\/ takes exponential time/);
    const trailing = { where: "probe.ts:2", source: "\\s+$", flags: "" };
    expect(await judge(trailing)).toMatch(/takes 2nd degree polynomial time/);
    expect(await judge({ where: "probe.ts:3", source: "^[a-z0-9-]{1,120}$", flags: "" })).toBe(
      null,
    );
  });

  it("none in src/ can backtrack", { timeout: 300_000 }, async () => {
    const patterns = sourceFiles(SOURCES).flatMap((path) =>
      patternsIn(relative(ROOT, path), readFileSync(path, "utf8")),
    );
    // A collector that found nothing would pass whatever src/ held.
    expect(patterns.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const pattern of patterns) {
      const failure = await judge(pattern);
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { CASE_STUDY_ROUTE, INSIGHT_ISSUE_ROUTE, slugIn } from "./routes.ts";

describe("the slug a path gives a route", () => {
  it.each([
    [CASE_STUDY_ROUTE, "/weserve/case-studies/a-study", "a-study"],
    [INSIGHT_ISSUE_ROUTE, "/insight/2026-costs", "2026-costs"],
    [INSIGHT_ISSUE_ROUTE, "/insight/Odd%20One", "Odd%20One"],
  ])("%s gives %s the slug %s", (route, path, slug) => {
    expect(slugIn(route, path)).toBe(slug);
  });

  it.each([
    [CASE_STUDY_ROUTE, "/weserve/case-studies/"],
    [CASE_STUDY_ROUTE, "/weserve/case-studies/a/b"],
    [CASE_STUDY_ROUTE, "/weserve/other/a-study"],
    [INSIGHT_ISSUE_ROUTE, "/insight"],
    [INSIGHT_ISSUE_ROUTE, "/weserve/case-studies/a-study"],
  ])("%s gives %s none", (route, path) => {
    expect(slugIn(route, path)).toBeNull();
  });
});

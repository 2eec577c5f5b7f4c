export const BUILD_LINK: string;
export const BUILDS_DIR: string;
export const BUILD_STAMP: string;
export function newestInput(root?: string): number;
export function buildState(root?: string): "current" | "stale" | "missing";
export function switchBuildTo(dir: string, root?: string): void;

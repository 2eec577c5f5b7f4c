/**
 * What a person typed into a console form and has not saved yet, kept in
 * this browser's localStorage: it outlives a session that ends mid-sentence,
 * a server that cannot be reached and a closed tab. Each copy belongs to one
 * person and one form, so someone else signing in on the same browser never
 * sees it. A browser that refuses storage (private mode, full quota) keeps
 * nothing, and the form works as before.
 */

const PREFIX = "console-typed";

export interface TypedCopy<T> {
  values: T;
  /** When it was typed, as an ISO instant. */
  at: string;
}

export function copyKey(personId: number, form: string): string {
  return `${PREFIX}:${personId}:${form}`;
}

export function readCopy<T>(key: string): TypedCopy<T> | null {
  try {
    const stored = window.localStorage.getItem(key);
    if (!stored) return null;
    const copy = JSON.parse(stored) as Partial<TypedCopy<T>>;
    return copy.values !== undefined && typeof copy.at === "string"
      ? { values: copy.values, at: copy.at }
      : null;
  } catch {
    return null;
  }
}

export function writeCopy<T>(key: string, values: T, at: Date): void {
  try {
    window.localStorage.setItem(key, JSON.stringify({ values, at: at.toISOString() }));
  } catch {
    // No room or no storage: the server's save is still the record.
  }
}

export function dropCopy(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing could have been kept either.
  }
}

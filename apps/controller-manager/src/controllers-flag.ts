// Karmada's --controllers syntax: a comma list where `*` enables every default-on controller, `foo` enables
// foo and `-foo` disables it; the first entry that names a controller wins.

export class UnknownControllerError extends Error {
  constructor(name: string, known: readonly string[]) {
    super(
      `--controllers names "${name}", which is not a controller of this manager; known: ${known.join(', ')}`,
    );
    this.name = 'UnknownControllerError';
  }
}

/** Decides whether `name` is enabled by the --controllers list. */
export function isControllerEnabled(
  name: string,
  entries: readonly string[],
  disabledByDefault: ReadonlySet<string>,
): boolean {
  let star = false;
  for (const entry of entries) {
    if (entry === name) return true;
    if (entry === `-${name}`) return false;
    if (entry === '*') star = true;
  }
  return star && !disabledByDefault.has(name);
}

/** Validates that every entry names a known controller (or is `*`). */
export function validateControllers(entries: readonly string[], known: readonly string[]): void {
  for (const entry of entries) {
    const name = entry.startsWith('-') ? entry.slice(1) : entry;
    if (entry !== '*' && !known.includes(name)) throw new UnknownControllerError(name, known);
  }
}

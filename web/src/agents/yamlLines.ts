// A Kubernetes object as YAML lines, each with the path of the field it shows, so that the
// lines of the fields a held write changes can be marked (spec 3 §4: "values the write changes
// marked"). Paths are dotted with list indexes as ".0": "spec.containers.0.image".

export interface YamlLine { text: string; path: string }

const PLAIN = /^[A-Za-z0-9_/][A-Za-z0-9_ ./:@=+-]*$/;
const LOOKS_TYPED = /^(true|false|null|yes|no|on|off|~|[-+]?[0-9][0-9_.eE+-]*)$/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function nested(value: unknown): boolean {
  return (Array.isArray(value) && value.length > 0) || (isObject(value) && Object.keys(value).length > 0);
}

/** A string YAML would read as itself; anything else quoted as JSON (which YAML reads too). */
function text(value: string): string {
  return PLAIN.test(value) && !LOOKS_TYPED.test(value) && !value.endsWith(" ") ? value : JSON.stringify(value);
}

const REDACTED = /^<redacted, (\d+) bytes(, changed)?>$/;

/**
 * A Secret value the API hid ("<redacted, N bytes[, changed]>", spec 3 §8) as a person reads it:
 * "‹oculto, 14 bytes›", "‹oculto, 14 bytes, cambia›"; any other text as it is.
 */
export function hiddenText(value: string): string {
  const hidden = REDACTED.exec(value);
  return hidden ? `‹oculto, ${hidden[1]} bytes${hidden[2] ? ", cambia" : ""}›` : value;
}

function scalar(value: unknown): string {
  if (Array.isArray(value)) {
    return "[]";
  }
  if (isObject(value)) {
    return "{}";
  }
  if (typeof value === "string") {
    return REDACTED.test(value) ? hiddenText(value) : text(value);
  }
  return value === undefined ? "null" : JSON.stringify(value);
}

function walk(value: unknown, path: string, depth: number, lines: YamlLine[]) {
  const pad = "  ".repeat(depth);
  const join = (key: string | number) => (path ? `${path}.${key}` : String(key));
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const itemPath = join(index);
      if (isObject(item) && nested(item)) {
        // The item's first field goes on the "- " line, as kubectl writes it.
        const inner: YamlLine[] = [];
        walk(item, itemPath, depth + 1, inner);
        inner[0] = { ...inner[0], text: `${pad}- ${inner[0].text.trimStart()}` };
        lines.push(...inner);
      } else if (nested(item)) {
        lines.push({ text: `${pad}-`, path: itemPath });
        walk(item, itemPath, depth + 1, lines);
      } else {
        lines.push({ text: `${pad}- ${scalar(item)}`, path: itemPath });
      }
    });
    return;
  }
  if (!isObject(value)) {
    lines.push({ text: `${pad}${scalar(value)}`, path });
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    const childPath = join(key);
    if (nested(child)) {
      lines.push({ text: `${pad}${text(key)}:`, path: childPath });
      walk(child, childPath, depth + 1, lines);
    } else {
      lines.push({ text: `${pad}${text(key)}: ${scalar(child)}`, path: childPath });
    }
  }
}

export function yamlLines(value: unknown): YamlLine[] {
  const lines: YamlLine[] = [];
  walk(value, "", 0, lines);
  return lines;
}

/** "spec.containers[0].image" and "spec.containers.0.image" name the same field. */
export function normalPath(path: string): string {
  return path.replace(/\[(\d+)\]/g, ".$1").replace(/^\./, "");
}

/** Whether a line shows a changed field, or lies inside one (a whole new list item, a removed map). */
export function isChanged(linePath: string, changed: string[]): boolean {
  return changed.some((path) => linePath === path || linePath.startsWith(`${path}.`));
}

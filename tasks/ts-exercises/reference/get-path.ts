export function getPath(value: unknown, path: string): unknown {
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let current: unknown = value;
  for (const step of steps) {
    if (step.startsWith("[")) {
      const index = Number(step.slice(1, -1));
      if (!Array.isArray(current) || index >= current.length) return null;
      current = current[index];
    } else {
      if (current === null || typeof current !== "object" || Array.isArray(current) || !Object.hasOwn(current, step)) return null;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current === undefined ? null : current;
}

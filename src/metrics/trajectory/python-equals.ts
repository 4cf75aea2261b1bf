/**
 * Python's `==` on values decoded from JSON (`dict`, `list`, `str`, `int`, `float`, `bool`, `None`), for the
 * argument matchers that agentevals writes as `tool_call == reference_tool_call`. It differs from a plain deep
 * equality in one place: Python's `bool` is an `int`, so `True == 1` and `False == 0` (and `1 == 1.0`) hold, at any
 * depth. Objects are equal when they have the same keys and equal values (order ignored); arrays element-wise.
 */
export function pythonEquals(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  const nx = numeric(x);
  if (nx !== undefined) {
    const ny = numeric(y);
    return ny !== undefined && nx === ny;
  }
  if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!pythonEquals(x[i], y[i])) return false;
    return true;
  }
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !pythonEquals(a[key], b[key])) return false;
  }
  return true;
}

function numeric(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

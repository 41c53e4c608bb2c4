export function addMinutes(clock: string, minutes: number): string {
  const [h, m] = clock.split(":").map(Number);
  const day = 24 * 60;
  const total = ((((h ?? 0) * 60 + (m ?? 0) + minutes) % day) + day) % day;
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

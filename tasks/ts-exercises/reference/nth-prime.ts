export function nthPrime(n: number): number {
  const primes: number[] = [];
  for (let candidate = 2; primes.length < n; candidate++) {
    if (primes.every((p) => p * p > candidate || candidate % p !== 0)) primes.push(candidate);
  }
  return primes[n - 1] ?? 0;
}

export function fewestCoins(coins: number[], amount: number): number {
  const best: number[] = [0];
  for (let a = 1; a <= amount; a++) {
    let fewest = Infinity;
    for (const coin of coins) {
      const rest = best[a - coin];
      if (coin <= a && rest !== undefined && rest + 1 < fewest) fewest = rest + 1;
    }
    best.push(fewest);
  }
  const answer = best[amount] ?? Infinity;
  return answer === Infinity ? -1 : answer;
}

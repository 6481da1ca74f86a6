// Valid Brazilian documents for the browser tests: random, so every run
// is new.
export function digits(n) { return Array.from({ length: n }, () => Math.floor(Math.random() * 10)); }

// cpfDigits is a CPF's eleven digits, check digits included.
export function cpfDigits() {
  const d = digits(9);
  if (new Set(d).size === 1) { d[0] = (d[0] + 1) % 10; }
  for (const len of [9, 10]) {
    const sum = d.slice(0, len).reduce((s, x, i) => s + x * (len + 1 - i), 0);
    d.push((sum * 10) % 11 % 10);
  }
  return d.join("");
}

// masked writes a CPF as people do: 123.456.789-09.
export function masked(c) { return `${c.slice(0, 3)}.${c.slice(3, 6)}.${c.slice(6, 9)}-${c.slice(9)}`; }

export function cnpj() {
  const d = [...digits(8), 0, 0, 0, 1];
  for (const w of [[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]]) {
    const r = d.reduce((s, x, i) => s + x * w[i], 0) % 11;
    d.push(r < 2 ? 0 : 11 - r);
  }
  const s = d.join("");
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}

// Chapter 8 (08_grids): the score of a query patch with every patch of a
// grid, with 2-D RoPE and with 1-D RoPE over the flattened sequence
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {range, fmt, esc, r1, titleText, svgDoc, RDBU_R, colourMap, heatmapURL} = PW.kit;
  const {dot, rope} = PW.formulas;

  // Chapter 8: RoPE_2D(x; r, c) = [R(c Theta) x_a, R(r Theta) x_b], the first
  // half of x turned by the column, the second by the row, each by 1-D RoPE
  // of width d/2 (theta_i = base^(-4i/d)), as posenc.rope_2d.
  function rope2d(x, r, c, base) {
    const half = x.length / 2;
    return rope(x.slice(0, half), c, base).concat(rope(x.slice(half), r, base));
  }
  PW.formulas.rope2d = rope2d;

  const PALETTE = colourMap(RDBU_R, 101);

  // An n x n grid of cells coloured by score, the query's cell outlined.
  function grid(x, y, size, n, scores, query, title, W) {
    const cell = size / n;
    const out = [`<text class="pw-title" x="${r1(x + size / 2)}" y="${y - 8}" ` +
                 `text-anchor="middle">${esc(title)}</text>`];
    out.push(`<image x="${r1(x)}" y="${r1(y)}" width="${r1(size)}" height="${r1(size)}" ` +
             `preserveAspectRatio="none" style="image-rendering:pixelated" ` +
             `href="${heatmapURL(scores, n, n, -1, 1, PALETTE)}"/>`);
    const [qr, qc] = query;
    const box = `x="${r1(x + qc * cell + 1.5)}" y="${r1(y + qr * cell + 1.5)}" ` +
                `width="${r1(cell - 3)}" height="${r1(cell - 3)}"`;
    out.push(`<rect class="pw-frame" x="${x}" y="${y}" width="${r1(size)}" height="${r1(size)}"/>`,
             `<rect class="pw-query-halo" ${box}/>`,
             `<path class="pw-series pw-black" stroke-width="2" d="M${r1(x + qc * cell + 1.5)} ` +
             `${r1(y + qr * cell + 1.5)}h${r1(cell - 3)}v${r1(cell - 3)}h${r1(3 - cell)}Z"/>`);
    if (n <= 16) {
      for (const [k, label] of [[0, "0"], [n - 1, String(n - 1)]]) {
        const at = r1((k + 0.5) * cell);
        out.push(`<line class="pw-axis" x1="${r1(x + at)}" x2="${r1(x + at)}" y1="${r1(y + size)}" ` +
                 `y2="${r1(y + size + 4)}"/>`,
                 `<line class="pw-axis" x1="${x - 4}" x2="${x}" y1="${r1(y + at)}" y2="${r1(y + at)}"/>`);
        out.push(`<text class="pw-tick" x="${r1(x + (k + 0.5) * cell)}" y="${r1(y + size + 14)}" ` +
                 `text-anchor="middle">${label}</text>`,
                 `<text class="pw-tick" x="${x - 4}" y="${r1(y + (k + 0.5) * cell + 4)}" ` +
                 `text-anchor="end">${label}</text>`);
      }
    }
    out.push(`<text class="pw-label" x="${r1(x + size / 2)}" y="${r1(y + size + 28)}" ` +
             `text-anchor="middle">column</text>`);
    return out.join("");
  }

  PW.register("patches", {
    controls: [
      {name: "n", label: "grid: patches a side", min: 3, max: 16, step: 1, value: 8},
      {name: "row", label: "query row", min: 0, max: 7, step: 1, value: 3,
       maxFrom: (p) => p.n - 1},
      {name: "col", label: "query column", min: 0, max: 7, step: 1, value: 3,
       maxFrom: (p) => p.n - 1},
      {name: "d", label: "head width d", values: [8, 16, 32, 64], value: 16},
      {name: "base", label: "base", values: [10, 100, 1000, 10000], value: 100,
       text: (b) => String(b).replace(/\B(?=(\d{3})+(?!\d))/g, ",")},
    ],
    compute({n, row, col, d, base}) {
      // the query and every key: the same vector, each pair (1, 0), so that
      // a pair scores cos(angle between them) and the score / (d/2) is 1 at
      // offset 0 (chapter 8's "a query and itself")
      const x = range(d).map((j) => (j % 2 === 0 ? 1 : 0));
      const pairs = d / 2;
      const q2 = rope2d(x, row, col, base), q1 = rope(x, row * n + col, base);
      const score2d = [], score1d = [];
      for (let r = 0; r < n; r++) {
        for (let c = 0; c < n; c++) {
          score2d.push(dot(q2, rope2d(x, r, c, base)) / pairs);
          score1d.push(dot(q1, rope(x, r * n + c, base)) / pairs);
        }
      }
      return {n, row, col, d, base, x, score2d, score1d};
    },
    draw({n, row, col, d, base}, v, W) {
      const side = W >= 560;  // the two grids side by side, or one above the other
      const size = side ? Math.min(300, (W - 110) / 2) : Math.min(300, W - 60);
      const x0 = side ? 40 : (W - size) / 2 + 10, y0 = 48;
      const x1 = side ? x0 + size + 50 : x0, y1 = side ? y0 : y0 + size + 72;
      const at = (scores, r, c) => (r >= 0 && r < n && c >= 0 && c < n ? scores[r * n + c] : null);
      const parts = [
        titleText(`Score of the query at (${row}, ${col}) with every patch, d = ${d}, ` +
                  `base ${base}`, W, 16),
        grid(x0, y0, size, n, v.score2d, [row, col], "2-D RoPE", W),
        grid(x1, y1, size, n, v.score1d, [row, col], "1-D RoPE, patches in reading order", W),
        `<text class="pw-label" x="${x0 - 26}" y="${r1(y0 + size / 2)}" text-anchor="middle" ` +
        `transform="rotate(-90 ${x0 - 26} ${r1(y0 + size / 2)})">row</text>`,
      ];
      if (!side) {
        parts.push(`<text class="pw-label" x="${x1 - 26}" y="${r1(y1 + size / 2)}" text-anchor="middle" ` +
                   `transform="rotate(-90 ${x1 - 26} ${r1(y1 + size / 2)})">row</text>`);
      }
      // a colour key under the grids
      const ky = (side ? y0 : y1) + size + 44, kw = Math.min(240, W - 80), kx = (W - kw) / 2;
      const key = range(41).map((k) => -1 + k / 20);
      parts.push(`<image x="${r1(kx)}" y="${ky}" width="${r1(kw)}" height="10" preserveAspectRatio="none" ` +
                 `href="${heatmapURL(key, 1, key.length, -1, 1, PALETTE)}"/>`);
      parts.push(`<text class="pw-tick" x="${r1(kx - 4)}" y="${ky + 9}" text-anchor="end">\u22121</text>`,
                 `<text class="pw-tick" x="${r1(kx + kw + 4)}" y="${ky + 9}">1</text>`,
                 `<text class="pw-tick" x="${r1(kx + kw / 2)}" y="${ky + 24}" text-anchor="middle">` +
                 `score / (d/2)</text>`);
      // the four neighbours, in both
      const near = [["left", 0, -1], ["right", 0, 1], ["above", -1, 0], ["below", 1, 0]]
        .filter(([, dr, dc]) => at(v.score2d, row + dr, col + dc) !== null);
      const said = (scores) => near.map(([name, dr, dc]) =>
        `${name} ${fmt(at(scores, row + dr, col + dc), 3)}`).join(", ");
      const alt = `Two ${n} by ${n} grids of patches coloured by the score of the query patch ` +
        `at row ${row}, column ${col} with each patch, from \u22121 (blue) to 1 (red), divided ` +
        `by the ${d / 2} pairs of a head of width ${d}, base ${base}. With 2-D RoPE the ` +
        `score falls off alike along the rows and the columns around the query: it is a ` +
        `function of the row offset plus one of the column offset. With 1-D RoPE over the ` +
        `patches in reading order, the query's row scores high, and so do the end of the row ` +
        `above and the start of the row below, its neighbours in the sequence, while the ` +
        `patch right below the query is ${n} positions away. Next to the query, 2-D RoPE ` +
        `scores ${said(v.score2d)}; 1-D RoPE ${said(v.score1d)}.`;
      // the next patch in reading order: beside the query, or at the start of
      // the next row
      const next = row * n + col + 1 < n * n ? [Math.floor((row * n + col + 1) / n), (col + 1) % n] : null;
      const wraps = next && next[1] === 0 ?
        ` The next patch in reading order, (${next[0]}, 0), at the other side of the image, ` +
        `scores ${fmt(at(v.score1d, ...next), 3)} in 1-D RoPE and ${fmt(at(v.score2d, ...next), 3)} ` +
        `in 2-D RoPE.` : "";
      const summary = `Query at (${row}, ${col}) of a ${n}\u00d7${n} grid, d = ${d}, base ` +
        `${base}. 2-D RoPE: ${said(v.score2d)}. 1-D RoPE in reading order: ` +
        `${said(v.score1d)} (the patches above and below are ${n} positions away).${wraps}`;
      return {svg: svgDoc(W, ky + 30, parts.join("")), alt, summary};
    },
  });
})(globalThis.PosencWidgets);

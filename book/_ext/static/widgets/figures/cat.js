// Chapter 3 (03_cat): a word of "The cat sat on the mat." at any position:
// its embedding, its position vector, their sum, and how alike the sum is to
// each input of the sentence
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {range, fmt, esc, r1, Panel, titleText, svgDoc} = PW.kit;
  const {peRow, dot} = PW.formulas;

  // The chapter's lower-cased embedding table, posenc.random_embeddings(5, 4,
  // seed=0), rows the, cat, sat, on, mat (tests/book/widget_checks/cat.py
  // checks every digit).
  const E = [
    [0.1257302210933933, -0.1321048632913019, 0.6404226504432821, 0.10490011715303971],
    [-0.535669373161111, 0.36159505490948474, 1.3040000451301372, 0.9470809631292422],
    [-0.7037352358069926, -1.2654214710460525, -0.6232744625373522, 0.0413259793472436],
    [-2.3250307746388343, -0.21879166393254573, -1.2459109472530652, -0.7322673547034516],
    [-0.5442589828573099, -0.31630015636915454, 0.4116305363741328, 1.0425133694426776]];
  const WORDS = ["the", "cat", "sat", "on", "mat"];
  const SENTENCE = [0, 1, 2, 3, 0, 4];  // the cat sat on the mat, positions 1 to 6
  const D = 4;

  const cosine = (u, v) => dot(u, v) / Math.sqrt(dot(u, u) * dot(v, v));
  const vector = (xs) => "[" + xs.map((x) => fmt(x, 3)).join(", ") + "]";

  // Chapter 3: x_pos = E[word] + PE(pos), PE of width 4 and base 10000,
  // positions counted from 1 as in the worked example.
  PW.register("cat", {
    controls: [
      {name: "word", label: "word", values: range(WORDS.length), value: 0,
       text: (w) => `\u201c${WORDS[w]}\u201d`},
      {name: "pos", label: "position", min: 1, max: 64, step: 1, value: 5},
    ],
    compute({word, pos}) {
      const embedding = E[word].slice(), pe = peRow(pos, D, 10000);
      const x = embedding.map((e, j) => e + pe[j]);
      const inputs = SENTENCE.map((w, k) => E[w].map((e, j) => e + peRow(k + 1, D, 10000)[j]));
      const cosines = inputs.map((row) => cosine(x, row));
      return {word, pos, E, embedding, pe, x, inputs, cosines};
    },
    draw({word, pos}, v, W) {
      const left = 62, right = 16, name = WORDS[word];
      const parts = [];
      // the three vectors, dimension by dimension
      const top = new Panel(left, 30, W - left - right, 150,
                            {domain: [-0.5, D - 0.5], ticks: []}, {domain: [-2.6, 2.6]}, W);
      top.axes({title: `x = E[\u2018${name}\u2019] + PE(${pos})`, ylabel: "value"})
        .hline(0, 'class="pw-axis"');
      const series = [["E[\u2018" + name + "\u2019]", "grey", v.embedding],
                      [`PE(${pos})`, "blue", v.pe], ["x, their sum", "vermillion", v.x]];
      const group = top.w / D, bw = Math.min(26, group / 4);
      range(D).forEach((j) => {
        series.forEach(([, colour, values], s) => {
          const x = top.X(j) + (s - 1.5) * bw, y0 = top.Y(0), y1 = top.Y(Math.max(-2.6, Math.min(2.6, values[j])));
          top.parts.push(`<rect class="pw-fill pw-${colour}" x="${r1(x)}" y="${r1(Math.min(y0, y1))}" ` +
                         `width="${r1(bw)}" height="${r1(Math.abs(y1 - y0))}"/>`);
        });
        top.parts.push(`<text class="pw-tick" x="${r1(top.X(j))}" y="${r1(top.y + top.h + 16)}" ` +
                       `text-anchor="middle">dim ${j}</text>`);
      });
      const keyY = 30 + 150 + 40;
      series.forEach(([label, colour], s) => {
        const x = left + s * Math.min(170, (W - left) / 3);
        parts.push(`<rect class="pw-fill pw-${colour}" x="${r1(x)}" y="${keyY - 10}" width="12" height="10"/>`,
                   `<text class="pw-tick" x="${r1(x + 18)}" y="${keyY}">${esc(label)}</text>`);
      });
      // its cosine similarity with each input of the sentence
      const by = keyY + 44;
      const bottom = new Panel(left, by, W - left - right, 150,
                               {domain: [-0.5, 5.5], ticks: []}, {domain: [-1, 1.25]}, W);
      bottom.axes({title: "Cosine similarity with the inputs x\u2081 to x\u2086 of the sentence",
                   ylabel: "cosine"}).hline(0, 'class="pw-axis"');
      const cw = Math.min(40, bottom.w / 9);
      v.cosines.forEach((c, k) => {
        const x = bottom.X(k) - cw / 2, y0 = bottom.Y(0), y1 = bottom.Y(c);
        const same = SENTENCE[k] === word;
        bottom.parts.push(`<rect class="pw-fill pw-${same ? "vermillion" : "blue"}" x="${r1(x)}" ` +
                          `y="${r1(Math.min(y0, y1))}" width="${r1(cw)}" height="${r1(Math.abs(y1 - y0))}"/>`,
                          `<text class="pw-note" x="${r1(bottom.X(k))}" y="${r1(c >= 0 ? y1 - 5 : y1 + 14)}" ` +
                          `text-anchor="middle">${c.toFixed(2).replace("-", "\u2212")}</text>`,
                          `<text class="pw-tick" x="${r1(bottom.X(k))}" y="${r1(bottom.y + bottom.h + 16)}" ` +
                          `text-anchor="middle">${k + 1} ${WORDS[SENTENCE[k]]}</text>`);
      });
      let best = 0;
      v.cosines.forEach((c, k) => { if (c > v.cosines[best]) best = k; });
      const list = v.cosines.map((c, k) => `x${"\u2081\u2082\u2083\u2084\u2085\u2086"[k]} ` +
                                          `(${WORDS[SENTENCE[k]]}) ${fmt(c, 3)}`).join(", ");
      const alt = `Two bar charts for \u201c${name}\u201d at position ${pos}. Above, the four ` +
        `dimensions of its embedding ${vector(v.embedding)}, of PE(${pos}) = ${vector(v.pe)} ` +
        `and of their sum x = ${vector(v.x)}. Below, the cosine similarity of x with each ` +
        `input of \u201cthe cat sat on the mat\u201d (positions 1 to 6): ${list}; bars of ` +
        `the same word are in vermillion.`;
      const summary = `\u201c${name}\u201d at position ${pos}: x = ${vector(v.x)}; most like ` +
        `x${"\u2081\u2082\u2083\u2084\u2085\u2086"[best]} (${WORDS[SENTENCE[best]]} at ${best + 1}), ` +
        `cosine ${fmt(v.cosines[best], 4)}. Cosines with x\u2081 to x\u2086: ` +
        v.cosines.map((c) => fmt(c, 3)).join(", ") + ".";
      return {svg: svgDoc(W, by + 150 + 26, parts.join("") + top.svg() + bottom.svg()), alt, summary};
    },
  });
})(globalThis.PosencWidgets);

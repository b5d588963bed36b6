// Chapter 6 (06_length): which distances a RoPE head of width 4 cannot tell
// from "near" (distances 1 and 2), for a base and a longest distance
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {TWO_PI, range, fmt, esc, r1, Panel, titleText, stroke, svgDoc, baseText} = PW.kit;
  const {frequencies} = PW.formulas;

  // The angle of pair i at distance d, brought into [0, 2 pi): d theta_i mod 2 pi.
  const turned = (d, theta) => (d * theta) % TWO_PI;

  // How far an angle lies outside the arc from a to b (b - a < pi), going
  // round the circle: 0 inside it.
  function outside(angle, a, b) {
    if (angle >= a && angle <= b) return 0;
    const round = (x, y) => Math.min(Math.abs(x - y), TWO_PI - Math.abs(x - y));
    return Math.min(round(angle, a), round(angle, b));
  }

  const list = (ds) => ds.length === 0 ? "none" : ds.join(", ");

  // Chapter 6: a head of width 4 turns two pairs, by theta_0 = 1 and
  // theta_1 = base^(-1/2) radian per position. A pair adds a cos(theta - phi)
  // to a key's score, high on one arc around phi: a pair that scores
  // distances 1 and 2 high scores every distance whose angle falls between
  // theirs at least as high. Only a pair that puts a distance outside that
  // arc can tell it from "near".
  PW.register("arcs", {
    controls: [
      {name: "longest", label: "longest distance", values: [15, 16, 24, 32, 48, 64], value: 15},
      {name: "base", label: "base", values: [100, 400, 1000, 10000], value: 10000,
       text: baseText},
    ],
    compute({base, longest}) {
      const theta = frequencies(4, base);
      const distances = range(longest).map((i) => i + 1);
      const angles = theta.map((t) => distances.map((d) => turned(d, t)));
      // the arc of "near": from the angle of distance 1 to that of distance 2
      const arcs = theta.map((t) => [turned(1, t), turned(2, t)]);
      const gaps = angles.map((row, i) => row.map((a) => outside(a, ...arcs[i])));
      const inside = gaps.map((row) => distances.filter((d, j) => d > 2 && row[j] === 0));
      const both = inside[0].filter((d) => inside[1].includes(d));
      return {base, longest, theta, distances, angles, arcs, gaps, inside, both};
    },
    draw({base, longest}, v, W) {
      const parts = [];
      const names = ["pair 0", "pair 1"];
      const colours = ["blue", "vermillion"];
      // two dials: distance d at angle d theta_i (12 o'clock is 0, clockwise,
      // as the book draws pairs), at a radius that grows with d
      const R = Math.min(96, W / 4 - 24), top = 40;
      parts.push(titleText(`Where each distance turns a head of width 4, base ${baseText(base)}`,
                           W, 16));
      for (let i = 0; i < 2; i++) {
        const cx = r1(W / 4 + i * W / 2), cy = r1(top + 14 + R);
        const at = (angle, r) => [r1(cx + r * Math.sin(angle)), r1(cy - r * Math.cos(angle))];
        const [a, b] = v.arcs[i];
        const [ax, ay] = at(a, R), [bx, by] = at(b, R);
        parts.push(`<circle class="pw-dial" cx="${cx}" cy="${cy}" r="${R}"/>`,
                   `<path class="pw-sweep" d="M${cx} ${cy}L${ax} ${ay}A${R} ${R} 0 0 1 ${bx} ${by}Z"/>`,
                   `<text class="pw-label" x="${cx}" y="${r1(cy + R + 18)}" text-anchor="middle">` +
                   `${names[i]}</text>`,
                   `<text class="pw-tick" x="${cx}" y="${r1(cy + R + 33)}" text-anchor="middle">` +
                   `${esc(fmt(v.theta[i], 3))} radian per position</text>`);
        // the wedge's edges, the angles of distances 1 and 2, named at the rim
        const close = R * (b - a) < 16;  // one label for both edges
        for (const [d, angle] of close ? [["1, 2", (a + b) / 2]] : [[1, a], [2, b]]) {
          const [x, y] = at(angle, R + 9);
          const side = Math.sin(angle) >= 0.05 ? "start" : Math.sin(angle) <= -0.05 ? "end" : "middle";
          parts.push(`<text class="pw-note" x="${x}" y="${r1(y + 4)}" text-anchor="${side}">${d}</text>`);
        }
        const radius = (d) => R * (0.2 + 0.75 * d / longest);
        const points = v.distances.map((d, j) => at(v.angles[i][j], radius(d)));
        const marks = points.map(([x, y]) =>
          `M${r1(x - 2.5)} ${y}a2.5 2.5 0 1 0 5 0a2.5 2.5 0 1 0 -5 0`).join("");
        parts.push(`<path class="pw-fill pw-${colours[i]}" d="${marks}"/>`);
        // the distances that land in the wedge, named if there are few
        if (v.inside[i].length <= 8) {
          for (const d of v.inside[i]) {
            const [x, y] = points[d - 1];
            const right = Math.sin(v.angles[i][d - 1]) >= 0;
            parts.push(`<text class="pw-note" x="${r1(x + (right ? 5 : -5))}" y="${r1(y + 4)}" ` +
                       `text-anchor="${right ? "start" : "end"}">${d}</text>`);
          }
        }
      }
      // below: how far outside the arc each distance lands, pair by pair
      const left = 62, right = 16, y0 = top + 2 * R + 88;
      const most = Math.max(0.2, ...v.gaps[0], ...v.gaps[1]);
      const panel = new Panel(left, y0, W - left - right, 170,
                              {domain: [0.5, longest + 0.5]}, {domain: [0, most * 1.1]}, W);
      panel.axes({title: "How far outside the wedge each distance lands",
                  xlabel: "distance from A back to B", ylabel: "radian"});
      const shapes = [2.6, 2.2];
      for (let i = 0; i < 2; i++) {
        panel.line(v.distances, v.gaps[i], stroke(colours[i], i ? 'stroke-dasharray="5 3"' : ""));
        panel.dots(v.distances, v.gaps[i], shapes[i], `class="pw-fill pw-${colours[i]}"`);
      }
      // a mark over each distance that no pair puts outside its wedge
      for (const d of v.both) {
        panel.parts.push(`<text class="pw-note" x="${r1(panel.X(d))}" y="${r1(panel.y + panel.h - 8)}" ` +
                         `text-anchor="middle">\u00d7</text>`);
      }
      const keyY = y0 + 170 + 50;
      const key = names.map((name, i) => {
        const x = left + i * 110;
        return `<line x1="${x}" x2="${x + 24}" y1="${keyY - 4}" y2="${keyY - 4}" ` +
               `${stroke(colours[i], i ? 'stroke-dasharray="5 3"' : "")}/>` +
               `<text class="pw-tick" x="${x + 30}" y="${keyY}">${name}</text>`;
      }).join("");
      const wide = left + 220 + 110 < W;  // the third item of the key on the same row
      const both = v.both.length === 0 ? "" : `<text class="pw-tick" x="${wide ? left + 220 : left}" ` +
        `y="${wide ? keyY : keyY + 18}">\u00d7 in both wedges</text>`;
      // how far pair 1 puts pair 0's confusions outside its own arc
      const rescue = v.inside[0].filter((d) => !v.both.includes(d))
        .map((d) => fmt(v.gaps[1][d - 1], 2));
      const slow = rescue.length === 0 ? "" : `; pair 1 puts ${rescue.length === 1 ? "it" : "those"} ` +
        `${rescue.length > 6 ? "between " + fmt(Math.min(...v.inside[0].filter((d) => !v.both.includes(d))
          .map((d) => v.gaps[1][d - 1])), 2) + " and " + fmt(Math.max(...v.inside[0]
          .filter((d) => !v.both.includes(d)).map((d) => v.gaps[1][d - 1])), 2) : rescue.join(", ")} ` +
        `radian outside its own arc`;
      const alt = `Two dials for the two pairs of a RoPE head of width 4 with base ` +
        `${baseText(base)}, turning by ${fmt(v.theta[0], 3)} and ${fmt(v.theta[1], 3)} radian ` +
        `per position. On each, a dot for every distance from 1 to ${longest}, at the angle ` +
        `the pair has turned by then and farther out for longer distances, and a shaded ` +
        `wedge between the angles of distances 1 and 2. In pair 0, distances ` +
        `${list(v.inside[0])} fall in the wedge; in pair 1, ${list(v.inside[1])}. Below, a ` +
        `line plot of how far outside the wedge each distance lands in each pair; the ` +
        `distances in both wedges: ${list(v.both)}.`;
      const summary = `Base ${baseText(base)}, distances 1 to ${longest}: pair 0 puts ` +
        `${list(v.inside[0])} between the angles of distances 1 and 2${slow}. ` +
        (v.both.length ? `No pair tells ${list(v.both)} from near.` :
          `Every distance lands outside the arc in at least one pair.`);
      return {svg: svgDoc(W, keyY + (both && !wide ? 26 : 8),
                          parts.join("") + panel.svg() + key + both), alt, summary};
    },
  });
})(globalThis.PosencWidgets);

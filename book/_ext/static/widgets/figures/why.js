// Chapter 1 (01_why): reorder "dog bites man" and watch self-attention's
// outputs move with the words; then a causal mask, or added positions
// (a figure file: book/_ext/posenc_widgets.py says how a chapter adds one).
(function (PW) {
  "use strict";

  const {range, fmt, esc, r1, Panel, titleText, svgDoc, RDBU_R, colourMap} = PW.kit;
  const {peRow, dot, softmax} = PW.formulas;

  // The chapter's numbers: its embedding table E (posenc.random_embeddings(3,
  // 8, seed=0), rows dog, bites, man) and its random head (W_q, W_k, W_v from
  // np.random.default_rng(1).normal(scale=1/sqrt(8), size=(3, 8, 8))), as the
  // notebook draws them; tests/book/widget_checks/why.py checks every digit.
  const E = [
    [0.1257302210933933, -0.1321048632913019, 0.6404226504432821, 0.10490011715303971,
     -0.535669373161111, 0.36159505490948474, 1.3040000451301372, 0.9470809631292422],
    [-0.7037352358069926, -1.2654214710460525, -0.6232744625373522, 0.0413259793472436,
     -2.3250307746388343, -0.21879166393254573, -1.2459109472530652, -0.7322673547034516],
    [-0.5442589828573099, -0.31630015636915454, 0.4116305363741328, 1.0425133694426776,
     -0.12853466294403426, 1.3664634705496859, -0.6651946734866135, 0.3515100700930197]];
  const W_q = [
    [0.12218246283994222, 0.29048588040778545, 0.11682714866236442, -0.4607356577098659,
     0.32009163635579263, 0.15781724353391882, -0.18984163695165693, 0.20545627607375597],
    [0.12889580678830137, 0.10399154147622595, 0.010048779785460184, 0.19329223009820568,
     -0.26037583947571313, -0.0575973644743177, -0.170454917668505, 0.21172410892091315],
    [0.01404388578165098, -0.10339907590559975, -0.2764463879998347, -0.09093118870508284,
     0.0028786955290828462, -0.09744034162594935, 0.45752064922455105, 0.35593079506905556],
    [-0.9585406868876833, -0.6678670379874765, -0.061791265727182264, -0.14926685148878951,
     0.07553420614214425, 0.07683490556330491, 0.7487690725781359, -0.3931587110599743],
    [-0.13350353057474745, 0.7222288280365855, 0.228644037013992, 0.23442830348183774,
     -0.181728695496649, -0.5826825646086049, 0.059207728124785475, 0.03854230037174104],
    [-0.4339344802297888, -0.24155710281624165, -0.025471287238377157, -0.33402013960163635,
     -0.034743680327643425, 0.033758348105936274, 0.012581634769422971, -0.1790011324261172],
    [0.20992164393809612, 0.3150750982711982, 0.11343700594561196, -0.2892880711797484,
     0.2586781456676547, -0.17728581870818014, 0.3108302174717961, -0.37893407523222694],
    [0.3233129802525286, -0.00709350240631737, -0.44149940417732075, -0.1109802226193173,
     0.01912804409850184, 0.09644630288607232, -0.34725594177333263, -0.3915154954768592]];
  const W_k = [
    [0.07056378829806004, -0.16502090960596552, 0.08326380753096418, 0.26853070239401516,
     -0.582934363740732, 0.08993978112144037, 0.432978087652029, -0.10519162461969808],
    [-0.28666624504611504, 0.26595835565220566, 0.08960687513944152, 0.31674249724852027,
     -0.12205218477469443, -0.5239018749175596, -0.03889467886542165, -0.15762405511905797],
    [0.27411836609265583, 0.06845955007397601, -0.576592275673868, -0.4225539592823867,
     0.31246661045458696, 0.24033322671477542, -0.2263602128217962, -0.0003708055824046713],
    [0.157534040696265, 0.16560594110739563, 0.3097983994171248, 0.0906813631426257,
     -0.033526880766640794, -0.09151661095425018, 0.37326144672296924, -0.7957971606853822],
    [-0.04902206030985493, 0.011667298653495051, -0.5039369578942543, 0.1176673813605545,
     -0.23026261017838204, 0.30492028193695764, -0.044403507142011744, 0.23658139710758835],
    [0.4309262892112154, 0.1353860523268156, -0.30961417947136555, -0.5353924866777419,
     0.6199148997603087, -0.03934773224800914, -0.2434444718797944, 0.05100258260101713],
    [-0.06767412489011028, 0.30127778678022504, 0.011995423937303969, 0.0048612119075379465,
     -0.2526420832204001, 0.16601739342661345, -0.3655270851101588, 0.23542746918880608],
    [0.5387932747699422, -0.5390579183601805, -0.8719437067245017, 0.21809957546976758,
     0.9008179115492546, -0.35388037404771805, -0.44218772612507024, 0.20823196349219178]];
  const W_v = [
    [-0.29723996871008307, -0.17890702557243532, -0.12307811067079066, 0.1880911414111608,
     -0.14329602408599745, 0.09824642029802909, -0.06241393223430376, -0.29863633263218686],
    [-0.11307565782587406, -0.3360170240388297, 0.002303395343916972, -0.3973467153291026,
     -0.38639650982463064, 0.5151137897661041, -0.01880346141501309, -0.019057243865485792],
    [0.18085543567381884, -0.14879542020607545, -0.08079945404238258, 0.15031277688303873,
     0.09984907858276326, -0.4098732885106451, 0.2946311005783619, -0.20875027612458844],
    [-0.37338029361776587, -0.31836601414288024, -0.13807863067724208, 0.5753375225352831,
     -0.4156147049488742, 0.05659537455776069, -0.7558350502958125, -0.0005539945263173486],
    [0.3180447569624867, -0.08367311994389538, -0.22251056722552723, 0.08185152165775259,
     0.2475410255491305, 0.23463838442610047, 0.6973748189134596, 0.07395186904631544],
    [-0.20944859938934882, -0.044540369763971736, -0.02563210661696568, 0.03844447061292988,
     -0.010616435179368267, 0.06150624754449499, -0.59073470410345, 0.2933181303423152],
    [-0.20320101723413034, -0.41477423483283077, 0.22547908484602178, 0.46574507642804924,
     0.17431177391345543, 0.05697842183576923, -0.32958964974415067, 1.0152523686008632],
    [0.3112184199338346, -0.40280149358460515, -0.27564362872163645, 0.030751808243851944,
     -0.5496804631780995, 0.05961985215569107, -0.16230630504717494, 0.4335521285266479]];

  const WORDS = ["dog", "bites", "man"];
  // the sentence itself first, then the chapter's "man bites dog", then the rest
  const ORDERS = [[0, 1, 2], [2, 1, 0], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1]];
  const sentence = (order) => order.map((w) => WORDS[w]).join(" ");
  const MODES = ["none", "causal", "positions"];
  const MODE_TEXT = {none: "no position signal", causal: "causal mask",
                     positions: "added positions"};

  const matmul = (A, B) => A.map((row) => B[0].map((_, j) => dot(row, B.map((b) => b[j]))));

  // Chapter 1: Attn(X) = softmax(Q K^T / sqrt(d_k)) V, Q = X W_q, K = X W_k,
  // V = X W_v; a causal mask lets query i see keys j <= i only.
  function attention(X, causal) {
    const Q = matmul(X, W_q), K = matmul(X, W_k), V = matmul(X, W_v);
    const weights = Q.map((q, i) => softmax(K.map((k, j) =>
      (causal && j > i ? -Infinity : dot(q, k) / Math.sqrt(q.length)))));
    return {weights, out: matmul(weights, V)};
  }
  PW.formulas.attention = attention;

  // The rows of a sentence: each word's embedding, plus p_i = PE(i) (chapter
  // 2's sinusoidal table, d_model = 8) when positions are added.
  function inputs(order, mode) {
    return order.map((w, i) => {
      const x = E[w];
      return mode === "positions" ? x.map((e, j) => e + peRow(i, 8, 10000)[j]) : x.slice();
    });
  }

  const PALETTE = colourMap(RDBU_R, 101);
  function cellColour(value, lo, hi) {
    const k = Math.max(0, Math.min(100, Math.round((value - lo) / (hi - lo) * 100)));
    const [r, g, b] = PALETTE[k];
    return {fill: `rgb(${r},${g},${b})`, dark: k < 18 || k > 82};
  }

  // A matrix of coloured cells, rows and columns labelled.
  function cells(x, y, cw, ch, M, lo, hi, rowNames, colNames, numbers) {
    const out = [];
    M.forEach((row, i) => {
      out.push(`<text class="pw-tick" x="${x - 6}" y="${r1(y + (i + 0.5) * ch + 4)}" ` +
               `text-anchor="end">${esc(rowNames[i])}</text>`);
      row.forEach((value, j) => {
        const {fill, dark} = cellColour(value, lo, hi);
        out.push(`<rect x="${r1(x + j * cw)}" y="${r1(y + i * ch)}" width="${r1(cw)}" ` +
                 `height="${r1(ch)}" fill="${fill}" stroke="#fff" stroke-width="0.5"/>`);
        if (numbers) {
          out.push(`<text class="pw-cellnum" x="${r1(x + (j + 0.5) * cw)}" ` +
                   `y="${r1(y + (i + 0.5) * ch + 4)}" text-anchor="middle" ` +
                   `fill="${dark ? "#fff" : "#000"}">${value.toFixed(2)}</text>`);
        }
      });
    });
    if (colNames) {
      colNames.forEach((name, j) => out.push(
        `<text class="pw-tick" x="${r1(x + (j + 0.5) * cw)}" y="${r1(y + M.length * ch + 14)}" ` +
        `text-anchor="middle">${esc(name)}</text>`));
    }
    return out.join("");
  }

  PW.register("permute", {
    controls: [
      {name: "order", label: "word order", values: range(ORDERS.length), value: 1,
       text: (k) => sentence(ORDERS[k])},
      {name: "mode", label: "position signal", values: MODES, value: "none",
       text: (m) => MODE_TEXT[m]},
    ],
    compute({order, mode}) {
      const words = ORDERS[order];
      const X = inputs(words, mode);
      const {weights, out} = attention(X, mode === "causal");
      const ref = attention(inputs([0, 1, 2], mode), mode === "causal");
      // each word's output here against its output in "dog bites man"
      const distance = [0, 1, 2].map((w) => {
        const here = out[words.indexOf(w)], there = ref.out[w];
        return Math.sqrt(here.reduce((s, h, j) => s + (h - there[j]) ** 2, 0));
      });
      return {order: words, mode, E, W_q, W_k, W_v, X, weights, out, distance};
    },
    draw({mode}, v, W) {
      const names = v.order.map((w) => WORDS[w]);
      const parts = [titleText(`\u201c${sentence(v.order)}\u201d, ${MODE_TEXT[mode]}`, W, 16)];
      // the weights (query rows, key columns) and the outputs, side by side
      // when there is room
      const wide = W >= 600;
      const wx = 64, wy = 52, wc = wide ? 46 : Math.min(46, (W - 80) / 3), wh = 28;
      parts.push(`<text class="pw-label" x="${r1(wx + 1.5 * wc)}" y="${wy - 8}" text-anchor="middle">` +
                 `weights: query (row), key (column)</text>`,
                 cells(wx, wy, wc, wh, v.weights, -1, 1, names, names, true));
      const ox = wide ? wx + 3 * wc + 80 : wx, oy = wide ? wy : wy + 3 * wh + 54;
      const oc = Math.min(34, (W - ox - 16) / 8);
      parts.push(`<text class="pw-label" x="${r1(ox + 4 * oc)}" y="${oy - 8}" text-anchor="middle">` +
                 `outputs, one row per word</text>`,
                 cells(ox, oy, oc, wh, v.out, -1.5, 1.5, names, range(8).map(String), false));
      // how far each word's output moved from "dog bites man"
      const by = oy + 3 * wh + 58, left = 64, right = 16;
      const top = Math.max(1.6, ...v.distance) * 1.25;  // room for the labels
      const panel = new Panel(left, by, W - left - right, 130,
                              {domain: [-0.5, 2.5], ticks: []}, {domain: [0, top]}, W);
      panel.axes({title: "How far each word\u2019s output is from its output in \u201cdog bites man\u201d",
                  ylabel: "distance"});
      const bw = Math.min(60, panel.w / 5);
      v.distance.forEach((dist, w) => {
        const x = panel.X(w) - bw / 2, y = panel.Y(dist);
        panel.parts.push(`<rect class="pw-fill pw-blue" x="${r1(x)}" y="${r1(y)}" width="${r1(bw)}" ` +
                         `height="${r1(Math.max(0, panel.y + panel.h - y))}"/>`,
                         `<text class="pw-tick" x="${r1(panel.X(w))}" y="${r1(panel.y + panel.h + 16)}" ` +
                         `text-anchor="middle">${WORDS[w]}</text>`,
                         `<text class="pw-note" x="${r1(panel.X(w))}" y="${r1(y - 5)}" ` +
                         `text-anchor="middle">${fmt(dist < 1e-12 ? 0 : dist, 3)}</text>`);
      });
      const most = Math.max(...v.distance);
      const moved = most < 1e-12;
      const alt = `For the sentence \u201c${sentence(v.order)}\u201d with ${MODE_TEXT[mode]}: ` +
        `the 3 by 3 attention weights of one head with the chapter's random weights, the ` +
        `3 by 8 outputs, one row per word, and a bar chart of how far each word's output is ` +
        `from its output in \u201cdog bites man\u201d: ` +
        v.distance.map((d, w) => `${WORDS[w]} ${fmt(d < 1e-12 ? 0 : d, 3)}`).join(", ") + ". " +
        (moved ? "Every bar is 0: the rows of the outputs have changed places with their words, " +
                 "and nothing else." : "The outputs are not the same rows reordered.");
      const itself = v.order.every((w, i) => w === i);
      const summary = `\u201c${sentence(v.order)}\u201d, ${MODE_TEXT[mode]}: ` + (itself ?
        `the sentence itself, so every distance is 0; choose another order.` : moved ?
        `every word's output is its output in \u201cdog bites man\u201d, to rounding; only ` +
        `the rows' order has changed.` :
        `the words' outputs move by ` +
        v.distance.map((d, w) => `${fmt(d < 1e-12 ? 0 : d, 3)} (${WORDS[w]})`).join(", ") +
        " from their outputs in \u201cdog bites man\u201d.");
      return {svg: svgDoc(W, by + 130 + 26, parts.join("") + panel.svg()), alt, summary};
    },
  });
})(globalThis.PosencWidgets);

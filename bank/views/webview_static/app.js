// ultibank table view: reads /board.json once, then renders every snapshot pushed on /events.
// Read-only: this script only sends GET requests.
"use strict";

(() => {
  const SVG = "http://www.w3.org/2000/svg"; // the SVG namespace name, not a download
  const $ = (id) => document.getElementById(id);
  const TOKENS = new Set(["car", "helicopter", "boat", "jet"]);
  // Tests and the benchmark read when each snapshot reached the page.
  const probe = { renders: [], board: false };
  window.ultibank = probe;

  let board = null;
  let current = null;
  let auctionEnd = 0;
  let auctionSeconds = 10;
  let auctionTimer = 0;
  let locale = "en";
  let lang = "";

  // The page's words, in the unit's language (French or English).
  const WORDS = {
    en: {
      title: "table view", live: "live", reconnecting: "reconnecting…", connecting: "connecting…",
      auction: "Auction", gameover: "Game over", log: "Last transactions",
      footer: "Read-only view: the game is played on the unit, this page only watches it.",
      waiting: "No game yet: tap 2 to {n} bank cards on the unit, then ✓.",
      winner: "winner", bankrupt: "bankrupt", jail: "in jail", owes: "owes {n} to {who}",
      thebank: "the bank", card: "card", total: "total",
      props: (n) => (n === 1 ? "1 property" : `${n} properties`),
      nobid: "no bid yet", offer: "✓ on the unit starts the countdown", lastbid: "last bid: {who}",
      buttonbid: "last bid on the ✓ button", sold: "sold: the winner taps their bank card",
      wins: "{who} wins", nowinner: "No winner", plusprops: "+ properties {n}",
      notx: "No transaction yet.", undo: "↶ undo would cancel this",
      over: "Game over", auctionof: "Auction: #{n}", newgame: "New game: tap the bank cards",
      txs: (n) => (n === 1 ? "1 transaction" : `${n} transactions`), off: "(the unit is off)",
      GO: ["GO", "+salary"], JAIL: ["JAIL", ""], FREE_PARKING: ["FREE", "PARKING"],
      GO_TO_JAIL: ["GO TO", "JAIL"], EVENT: ["?", ""], LOCATION: ["LOC", ""],
      CHANCE: ["?", ""], CHEST: ["CHEST", ""], TAX: ["TAX", ""],
      worth: "worth", deeds: (n) => (n === 1 ? "1 deed" : `${n} deeds`), jailcards: (n) => (n === 1 ? "1 jail card" : `${n} jail cards`),
      tries: "try {n}", pot: "Free Parking: {n}", stock: "bank: {h} houses, {H} hotels",
      mortgaged: "mortgaged", mortgagedShort: "MORT.", hotel: "hotel", houses: (n) => (n === 1 ? "1 house" : `${n} houses`),
      step: "On the unit", interest: "Interest question: #{n}", keep: "✓ keep: pay {n}",
      lift: "M lift: pay {n}", tradeoffer: "Trade offered", trade: "Trade being composed",
      gives: "{who} gives", nothing: "nothing", jailcard: "jail card",
      session: { build: "Building: {who}", sell: "Selling: {who}", mortgage: "Mortgages: {who}" },
      series: "Auction {i}/{n} after a bankruptcy", roll: "last roll: {who} {a} + {b}",
      eliminated: "out",
      AUCTION: ["AUCTION", ""], BUS_TICKET: ["BUS", "TICKET"], BIRTHDAY_GIFT: ["BIRTHDAY", "GIFT"],
      megastock: "{S} skyscrapers, {D} depots", skyscraper: "skyscraper", depot: "depot",
      face: { mr: "Mr Monopoly", bus: "bus", light: "light square", dark: "dark square", shift: "Force shift" },
      side: { light: "light side", dark: "dark side" },
    },
    fr: {
      title: "vue de la table", live: "en direct", reconnecting: "reconnexion…", connecting: "connexion…",
      auction: "Enchère", gameover: "Partie terminée", log: "Dernières transactions",
      footer: "Vue en lecture seule : la partie se joue sur l'unité, cette page la regarde.",
      waiting: "Pas de partie : touchez 2 à {n} cartes banque sur l'unité, puis ✓.",
      winner: "gagnant", bankrupt: "en faillite", jail: "en prison", owes: "doit {n} à {who}",
      thebank: "la banque", card: "carte", total: "total",
      props: (n) => (n <= 1 ? `${n} propriété` : `${n} propriétés`),
      nobid: "pas encore d'enchère", offer: "✓ sur l'unité lance le compte à rebours",
      lastbid: "dernière enchère : {who}", buttonbid: "dernière enchère au bouton ✓",
      sold: "adjugé : le gagnant touche sa carte banque",
      wins: "{who} gagne", nowinner: "Pas de gagnant", plusprops: "+ propriétés {n}",
      notx: "Aucune transaction.", undo: "↶ l'annulation porterait sur celle-ci",
      over: "Partie terminée", auctionof: "Enchère : #{n}", newgame: "Nouvelle partie : cartes banque",
      txs: (n) => (n <= 1 ? `${n} transaction` : `${n} transactions`), off: "(l'unité est éteinte)",
      GO: ["DÉPART", ""], JAIL: ["PRISON", ""], FREE_PARKING: ["PARC", "GRATUIT"],
      GO_TO_JAIL: ["ALLEZ EN", "PRISON"], EVENT: ["?", ""], LOCATION: ["LOC", ""],
      CHANCE: ["?", ""], CHEST: ["CAISSE", ""], TAX: ["TAXE", ""],
      worth: "valeur", deeds: (n) => (n <= 1 ? `${n} titre` : `${n} titres`), jailcards: (n) => (n <= 1 ? `${n} carte prison` : `${n} cartes prison`),
      tries: "essai {n}", pot: "Parc gratuit : {n}", stock: "banque : {h} maisons, {H} hôtels",
      mortgaged: "hypothéqué", mortgagedShort: "HYP.", hotel: "hôtel", houses: (n) => (n <= 1 ? `${n} maison` : `${n} maisons`),
      step: "Sur l'unité", interest: "Question des intérêts : n°{n}", keep: "✓ garder : payer {n}",
      lift: "M lever : payer {n}", tradeoffer: "Échange proposé", trade: "Échange en préparation",
      gives: "{who} donne", nothing: "rien", jailcard: "carte prison",
      session: { build: "Construire : {who}", sell: "Vendre : {who}", mortgage: "Hypothèques : {who}" },
      series: "Enchère {i}/{n} après une faillite", roll: "dernier lancer : {who} {a} + {b}",
      eliminated: "éliminé",
      AUCTION: ["ENCHÈRE", ""], BUS_TICKET: ["TICKET", "BUS"], BIRTHDAY_GIFT: ["CADEAU", ""],
      megastock: "{S} gratte-ciel, {D} dépôts", skyscraper: "gratte-ciel", depot: "dépôt",
      face: { mr: "M. Monopoly", bus: "bus", light: "carré clair", dark: "carré obscur", shift: "bascule" },
      side: { light: "côté clair", dark: "côté obscur" },
    },
  };
  const words = () => WORDS[lang] || WORDS.en;
  const t = (key, vars) => {
    let text = words()[key];
    if (text === undefined) text = WORDS.en[key];
    for (const [k, v] of Object.entries(vars || {})) text = text.replace(`{${k}}`, v);
    return text;
  };

  function setLanguage(next) {
    if (next === lang) return false;
    lang = WORDS[next] ? next : "en";
    locale = lang;
    document.documentElement.lang = lang;
    for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
    return true;
  }

  const esc = (s) =>
    String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const money = (n) => Number(n).toLocaleString(locale);
  const tokenOf = (card) => {
    const p = current && current.players.find((q) => q.card === card);
    return p ? p.label : board.tokens[card - 1] || `${t("card")} ${card}`;
  };
  const prop = (n) => board.properties[n - 1];
  // the drawings follow the board's layout and buildings (its ruleset's board), never its name:
  // "buildings" draws houses, a hotel and a mortgage on a property (else a level's pips)
  const buildings = () => board.layout === "buildings";
  const builds = (kind) => buildings() && (board.buildings || []).includes(kind);
  const takesDepot = (n) => (board.depot_groups || []).includes(prop(n).group);
  // A player's disc: the label's initial, or the initial and the bank card's number when
  // another player's label starts with the same letter (chien C1, chapeau C3).
  const discText = (card, label) => {
    const initial = (label || String(card)).slice(0, 1).toUpperCase();
    const players = (current && current.players) || [];
    const shared = players.some(
      (q) => q.card !== card && (q.label || "").slice(0, 1).toUpperCase() === initial
    );
    return shared ? `${initial}${card}` : initial;
  };
  const tokenIcon = (token, cls, label, card) => {
    if (TOKENS.has(token)) {
      return `<svg class="${cls}" viewBox="0 0 24 24" aria-hidden="true"><use href="#tok-${token}"/></svg>`;
    }
    const text = discText(card, label);
    const size = text.length > 1 ? 10 : 13;
    return `<svg class="${cls}" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10"/><text x="12" y="${text.length > 1 ? 15.5 : 16.5}" text-anchor="middle" font-size="${size}" font-weight="700" fill="#fff">${esc(text)}</text></svg>`;
  };
  const chip = (colour) =>
    `<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><rect width="16" height="16" rx="3" fill="${esc(colour)}"/></svg>`;

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  // ------------------------------------------------------------------ the board drawing
  // The edition's ring, a quarter per side: 36 Ultime spaces (corners at 0, 9, 18, 27), 40
  // classic ones (0, 10, 20, 30), 52 Méga ones. Corners: GO (bottom right), jail, free
  // parking, go to jail; the colour band faces the middle of the board.
  const SIZE = 1000;
  const C = 140;
  const BAND = 30;
  let PER = 9; // spaces per side, corner included
  let W = (SIZE - 2 * C) / 8;
  // a space narrower than this (Méga's 52: 60 units) lays a side space's number, owner and
  // buildings out in a row, not a column, and uses smaller words
  const TIGHT = 75;
  const tight = () => W < TIGHT;

  function geometry(pos) {
    const side = Math.floor(pos / PER);
    const k = pos % PER;
    if (k === 0) {
      const corners = [[SIZE - C, SIZE - C], [0, SIZE - C], [0, 0], [SIZE - C, 0]];
      const [x, y] = corners[side];
      return { x, y, w: C, h: C, corner: true };
    }
    if (side === 0) return { x: SIZE - C - k * W, y: SIZE - C, w: W, h: C, band: "top" };
    if (side === 1) return { x: 0, y: SIZE - C - k * W, w: C, h: W, band: "right" };
    if (side === 2) return { x: C + (k - 1) * W, y: 0, w: W, h: C, band: "bottom" };
    return { x: SIZE - C, y: C + (k - 1) * W, w: C, h: W, band: "left" };
  }

  function bandRect(g) {
    if (g.band === "top") return { x: g.x, y: g.y, w: g.w, h: BAND };
    if (g.band === "bottom") return { x: g.x, y: g.y + g.h - BAND, w: g.w, h: BAND };
    if (g.band === "right") return { x: g.x + g.w - BAND, y: g.y, w: BAND, h: g.h };
    return { x: g.x, y: g.y, w: BAND, h: g.h };
  }

  // Where a property's number, owner and buildings go: a column, or, on a tight side space
  // (wide and short), a row from the band outwards.
  function layout(g) {
    const [cx, cy] = contentCentre(g);
    const hs = Math.min(14, (W - 16) / 4 - 3);
    const r = Math.min(21, W / 2 - 8);
    if (tight() && (g.band === "left" || g.band === "right")) {
      const dir = g.band === "left" ? 1 : -1; // away from the band
      const x0 = cx - dir * 36;
      return { num: [x0, cy], owner: [cx + dir * 2, cy], houses: [cx + dir * 38, cy], r, hs, stack: true, dir };
    }
    return { num: [cx, cy - 30], owner: [cx, cy + 2], houses: [cx, cy + 28], r, hs, stack: false };
  }

  function contentCentre(g) {
    if (g.band === "top") return [g.x + g.w / 2, g.y + BAND + (g.h - BAND) / 2];
    if (g.band === "bottom") return [g.x + g.w / 2, g.y + (g.h - BAND) / 2];
    if (g.band === "right") return [g.x + (g.w - BAND) / 2, g.y + g.h / 2];
    return [g.x + BAND + (g.w - BAND) / 2, g.y + g.h / 2];
  }

  function spaceWords(space, pos) {
    const tax = space === "TAX" && board.taxes && board.taxes[String(pos)];
    if (tax) return [words().TAX[0], `−${tax.amount}`, tax.name];
    const named = board.space_names && board.space_names[space];
    if (named) return [...(words()[space] || [space, ""]), named];
    const [top, bottom] = words()[space] || [space, ""];
    return [top, bottom, ""];
  }

  function buildBoard() {
    const svg = $("board");
    svg.textContent = "";
    PER = Math.max(2, Math.round(board.ring.length / 4));
    W = (SIZE - 2 * C) / (PER - 1);
    svg.classList.toggle("tight", tight());
    el("rect", { class: "centre", x: C, y: C, width: SIZE - 2 * C, height: SIZE - 2 * C }, svg);
    const title = el("text", { class: "title", x: SIZE / 2, y: SIZE / 2 - 60 }, svg);
    title.textContent = "ultibank";
    const sub = el("text", { class: "subtitle", x: SIZE / 2, y: SIZE / 2 - 10 }, svg);
    sub.textContent = board.name;
    el("text", { class: "status", id: "board-status", x: SIZE / 2, y: SIZE / 2 + 70 }, svg);
    if (buildings()) {
      el("text", { class: "subtitle", id: "board-pot", x: SIZE / 2, y: SIZE / 2 + 200 }, svg);
      el("text", { class: "subtitle", id: "board-stock", x: SIZE / 2, y: SIZE / 2 + 240 }, svg);
      if (builds("skyscraper")) el("text", { class: "subtitle", id: "board-megastock", x: SIZE / 2, y: SIZE / 2 + 275 }, svg);
      el("text", { class: "subtitle", id: "board-roll", x: SIZE / 2, y: SIZE / 2 + (builds("skyscraper") ? 320 : 280) }, svg);
    }
    // the colour groups as a legend in the middle
    const groups = board.groups;
    const gw = 64;
    const gx = SIZE / 2 - (groups.length * gw) / 2;
    groups.forEach((g, i) => {
      const r = el("rect", { x: gx + i * gw + 8, y: SIZE / 2 + 130, width: gw - 16, height: 22, rx: 5, fill: g.colour }, svg);
      el("title", {}, r).textContent = g.name;
    });

    board.ring.forEach((space, pos) => {
      const g = geometry(pos);
      const cell = el("g", { id: `space-${pos}` }, svg);
      if (space.startsWith("P")) {
        const number = Number(space.slice(1));
        const p = prop(number);
        el("rect", { class: "space", x: g.x, y: g.y, width: g.w, height: g.h }, cell);
        const b = bandRect(g);
        el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, fill: p.colour, stroke: "#9aa3b0", "stroke-width": 2 }, cell);
        const at = layout(g);
        const [cx, cy] = at.owner;
        const num = el("text", { class: "num", x: at.num[0], y: at.num[1] }, cell);
        num.textContent = String(number);
        const owner = el("g", { class: "owner", id: `owner-${number}`, visibility: "hidden" }, cell);
        el("circle", { cx, cy, r: at.r, fill: "#888" }, owner);
        el("use", { href: "#tok-car", x: cx - 14, y: cy - 14, width: 28, height: 28 }, owner);
        el("text", { class: "initial", x: cx, y: cy + 1 }, owner);
        el("title", {}, owner);
        if (buildings()) {
          // houses 1-4 as small squares (a 2 x 2 block on a tight side space), a hotel as one
          // long red block, a Méga skyscraper as a tall dark tower with windows, a depot as
          // a brown shed on a station; mortgaged: a sash
          const hs = at.hs;
          const [hx, hy] = at.houses;
          // stacked: a 2 x 2 block centred on (hx, hy); else a row whose top is hy
          const house = (k) => at.stack
            ? { x: hx - hs - 1.5 + (k % 2) * (hs + 3), y: hy - hs - 1.5 + Math.floor(k / 2) * (hs + 3) }
            : { x: hx - 2 * (hs + 3) + k * (hs + 3) + 1.5, y: hy };
          for (let k = 0; k < 4; k++) {
            el("rect", { class: "house", id: `house-${number}-${k + 1}`, ...house(k), width: hs, height: hs, visibility: "hidden" }, cell);
          }
          const block = at.stack
            ? { x: hx - hs - 1.5, y: hy - hs - 1.5, width: 2 * hs + 3, height: 2 * hs + 3 }
            : { x: hx - 2 * (hs + 3) + 1.5, y: hy, width: 4 * (hs + 3) - 3, height: hs };
          el("rect", { class: "hotel", id: `hotel-${number}`, ...block, visibility: "hidden" }, cell);
          if (builds("skyscraper")) {
            const tw = 2 * hs + 3;
            const th = 2 * hs + 12;
            const tx = hx - tw / 2;
            const ty = at.stack ? hy - th / 2 : hy - 2;
            const tower = el("g", { class: "skyscraper", id: `skyscraper-${number}`, visibility: "hidden" }, cell);
            el("rect", { x: tx, y: ty, width: tw, height: th, rx: 1.5 }, tower);
            for (let row = 0; row < 3; row++) {
              for (let col = 0; col < 2; col++) {
                el("rect", { class: "window", x: tx + 2 + col * (tw / 2 - 1), y: ty + 3 + row * ((th - 4) / 3), width: tw / 2 - 5, height: Math.max(2, (th - 4) / 3 - 3) }, tower);
              }
            }
            el("title", {}, tower).textContent = t("skyscraper");
          }
          if (builds("depot") && takesDepot(number)) {
            const shed = el("g", { class: "depot", id: `depot-${number}`, visibility: "hidden" }, cell);
            const dw = at.stack ? 2 * hs + 8 : 4 * (hs + 3) + 6;
            const dh = at.stack ? 2 * hs + 6 : hs + 6;
            const dx = hx - dw / 2;
            const dy = at.stack ? hy - dh / 2 : hy - 3;
            el("path", { d: `M${dx} ${dy + dh}V${dy + dh * 0.35}L${dx + dw / 2} ${dy}L${dx + dw} ${dy + dh * 0.35}V${dy + dh}Z` }, shed);
            const dt = el("text", { x: dx + dw / 2, y: dy + dh * 0.62 }, shed);
            dt.textContent = "D";
            el("title", {}, shed).textContent = t("depot");
          }
          // under the owner's token, over the space; the word where the houses would be
          const sash = el("g", { class: "mortgage", id: `mortgage-${number}`, visibility: "hidden" });
          cell.insertBefore(sash, owner);
          el("rect", { x: g.x + 3, y: g.y + 3, width: g.w - 6, height: g.h - 6 }, sash);
          // stacked: the word against the space's outer edge, whatever its length
          const mt = at.stack
            ? el("text", { x: at.dir > 0 ? g.x + g.w - 5 : g.x + 5, y: cy, "text-anchor": at.dir > 0 ? "end" : "start" }, sash)
            : el("text", { x: hx, y: hy + 7 }, sash);
          mt.textContent = t("mortgagedShort");
        } else {
          for (let k = 0; k < 5; k++) {
            el("circle", { class: "pip", id: `pip-${number}-${k + 1}`, cx: cx - 28 + k * 14, cy: cy + 34, r: 5.5 }, cell); // cy: the owner's, 2 below the centre
          }
        }
        el("rect", { class: "hl", id: `hl-${number}`, x: g.x + 4, y: g.y + 4, width: g.w - 8, height: g.h - 8, visibility: "hidden" }, cell);
        el("title", {}, cell).textContent =
          `#${number} ${p.name}: price ${p.price}, rents ${p.rents.join(" / ")} ${board.currency}`;
      } else {
        const [top, bottom, full] = spaceWords(space, pos);
        el("rect", { class: `space ${g.corner ? "corner" : "special"}`, x: g.x, y: g.y, width: g.w, height: g.h }, cell);
        if (full) el("title", {}, cell).textContent = full;
        const cx = g.x + g.w / 2;
        const cy = g.y + g.h / 2;
        const big = space === "EVENT" || space === "CHANCE";
        const label = el("text", { class: `label${big ? "" : " small"}`, x: cx, y: bottom ? cy - 12 : cy }, cell);
        if (big) label.setAttribute("font-size", "44");
        label.textContent = top;
        if (bottom) {
          const t2 = el("text", { class: "label small", x: cx, y: cy + 14 }, cell);
          t2.textContent = bottom;
        }
      }
    });
  }

  function renderBoard(s) {
    const focus = s.auction ? s.auction.number : s.checking;
    for (const p of s.properties) {
      const owner = $(`owner-${p.number}`);
      if (!owner) continue;
      if (p.owner == null) {
        owner.setAttribute("visibility", "hidden");
      } else {
        owner.setAttribute("visibility", "visible");
        owner.querySelector("circle").setAttribute("fill", board.player_colours[String(p.owner)] || "#555");
        const player = s.players.find((q) => q.card === p.owner);
        const token = player ? player.token : board.tokens[p.owner - 1];
        owner.querySelector("use").setAttribute("href", TOKENS.has(token) ? `#tok-${token}` : "");
        owner.querySelector("use").setAttribute("visibility", TOKENS.has(token) ? "visible" : "hidden");
        const initial = owner.querySelector(".initial");
        const disc = TOKENS.has(token) ? "" : discText(p.owner, player ? player.label : "");
        initial.textContent = disc;
        initial.setAttribute("class", disc.length > 1 ? "initial two" : "initial");
        owner.querySelector("title").textContent = player ? player.label : "";
      }
      if (buildings()) {
        for (let k = 1; k <= 4; k++) {
          $(`house-${p.number}-${k}`).setAttribute("visibility", !p.hotel && k <= (p.houses || 0) ? "visible" : "hidden");
        }
        $(`hotel-${p.number}`).setAttribute("visibility", p.hotel ? "visible" : "hidden");
        const tower = $(`skyscraper-${p.number}`);
        if (tower) tower.setAttribute("visibility", p.skyscraper ? "visible" : "hidden");
        const shed = $(`depot-${p.number}`);
        if (shed) shed.setAttribute("visibility", p.depot ? "visible" : "hidden");
        $(`mortgage-${p.number}`).setAttribute("visibility", p.mortgaged ? "visible" : "hidden");
        $(`space-${prop(p.number).position}`).dataset.state = p.skyscraper ? "skyscraper"
          : p.hotel ? "hotel" : p.mortgaged ? "mortgaged" : p.depot ? "depot" : `houses-${p.houses || 0}`;
      } else {
        for (let k = 1; k <= 5; k++) {
          const pip = $(`pip-${p.number}-${k}`);
          pip.setAttribute("class", p.level != null && k <= p.level ? "pip on" : "pip");
        }
      }
      $(`hl-${p.number}`).setAttribute("visibility", p.number === focus ? "visible" : "hidden");
    }
    const status = $("board-status");
    if (s.game_over) status.textContent = t("over");
    else if (s.auction) status.textContent = t("auctionof", { n: s.auction.number });
    else if (!s.started) status.textContent = t("newgame");
    else status.textContent = words().txs(s.seq);
    if (buildings()) {
      const c = s.table;
      $("board-pot").textContent = c && c.pot_on ? t("pot", { n: `${money(c.pot)} ${board.currency}` }) : "";
      $("board-stock").textContent = c ? t("stock", { h: c.bank.houses, H: c.bank.hotels }) : "";
      if (builds("skyscraper")) $("board-megastock").textContent = c ? t("megastock", { S: c.bank.skyscrapers, D: c.bank.depots }) : "";
      const r = c && c.last_roll;
      $("board-roll").textContent = r ? rollWords(r) : "";
    }
  }

  // The last roll: the white dice, then the third die (Méga's speed die: its number added,
  // or Mr. Monopoly, the bus; Star Wars' Force die: its face).
  function rollWords(r) {
    let text = t("roll", { who: r.card == null ? "" : tokenOf(r.card), a: r.dice[0], b: r.dice[1] }).replace(/ {2,}/g, " ");
    if (typeof r.third === "number") text += ` + ${r.third}`;
    else if (r.third) text += ` · ${(words().face || WORDS.en.face)[r.third] || r.third}`;
    return text;
  }

  // ------------------------------------------------------------------ panels

  function renderPlayers(s) {
    const box = $("players");
    if (!s.players.length) {
      box.innerHTML = `<div class="waiting">${esc(t("waiting", { n: board.tokens.length }))}</div>`;
      return;
    }
    box.innerHTML = s.players
      .map((p) => {
        const cls = ["player", `p${p.card}`];
        const badges = [];
        if (p.winner) { cls.push("winner"); badges.push(`<span class="badge winner">★ ${esc(t("winner"))}</span>`); }
        else if (p.rank) badges.push(`<span class="badge">#${p.rank}</span>`);
        if (p.bankrupt) { cls.push("bankrupt"); badges.push(`<span class="badge bankrupt">${esc(t("bankrupt"))}</span>`); }
        if (p.jailed) { cls.push("jailed"); badges.push(`<span class="badge jail">${esc(t("jail"))}</span>`); }
        if (p.jailed && p.jail_tries) badges.push(`<span class="badge jail">${esc(t("tries", { n: p.jail_tries }))}</span>`);
        if (p.side) badges.push(`<span class="badge side ${esc(p.side)}">${esc((words().side || WORDS.en.side)[p.side] || p.side)}</span>`);
        if (p.jail_cards && p.jail_cards.length) badges.push(`<span class="badge jailcard">${esc(words().jailcards(p.jail_cards.length))}</span>`);
        if (p.debt > 0) {
          const to = p.creditor == null ? t("thebank") : tokenOf(p.creditor);
          badges.push(`<span class="badge debt">${esc(t("owes", { n: money(p.debt), who: to }))}</span>`);
        }
        const n = p.owned.length;
        if (buildings()) {
          return `<article class="${cls.join(" ")}" data-card="${p.card}" data-worth="${p.wealth}">
          ${tokenIcon(p.token, "tok", p.label, p.card)}
          <div class="pname">${esc(p.label)}</div>
          <div class="balance" data-balance="${p.balance}">${money(p.balance)}<small>${esc(board.currency)}</small></div>
          <div class="pmeta">${esc(words().deeds(n))} (${money(p.worth)})<br>${esc(t("worth"))} ${money(p.wealth)} · ${esc(t("card"))} ${p.card}</div>
          <div class="badges">${badges.join("")}</div>
        </article>`;
        }
        return `<article class="${cls.join(" ")}" data-card="${p.card}">
          ${tokenIcon(p.token, "tok", p.label, p.card)}
          <div class="pname">${esc(p.label)}</div>
          <div class="balance" data-balance="${p.balance}">${money(p.balance)}<small>${esc(board.currency)}</small></div>
          <div class="pmeta">${esc(words().props(n))} (${money(p.worth)})<br>${esc(t("total"))} ${money(p.wealth)} · ${esc(t("card"))} ${p.card}</div>
          <div class="badges">${badges.join("")}</div>
        </article>`;
      })
      .join("");
  }

  function tickAuction() {
    const left = Math.max(0, auctionEnd - performance.now());
    $("auc-secs").textContent = String(Math.ceil(left / 1000));
    $("auc-bar").style.width = `${Math.min(100, (100 * left) / (auctionSeconds * 1000))}%`;
    if (left <= 0 && auctionTimer) { clearInterval(auctionTimer); auctionTimer = 0; }
  }

  function renderAuction(s) {
    const box = $("auction");
    const a = s.auction;
    if (auctionTimer) { clearInterval(auctionTimer); auctionTimer = 0; }
    if (!a) { box.hidden = true; return; }
    box.hidden = false;
    const p = prop(a.number);
    $("auc-prop").innerHTML = `${chip(p.colour)}<span>#${a.number} ${esc(p.name)}</span>`;
    $("auc-price").textContent = `${money(a.price)} ${board.currency}`;
    let who = t("nobid");
    if (a.phase === "offer") who = t("offer");
    else if (a.bidder != null) who = t("lastbid", { who: tokenOf(a.bidder) });
    else if (a.bids) who = t("buttonbid");
    if (a.phase === "await_winner") who = t("sold");
    $("auc-bidder").textContent = who;
    if (a.phase === "running") {
      auctionSeconds = a.seconds || 10;
      auctionEnd = performance.now() + a.remaining * 1000;
      tickAuction();
      auctionTimer = setInterval(tickAuction, 100);
    } else {
      $("auc-secs").textContent = a.phase === "offer" ? "–" : "0";
      $("auc-bar").style.width = a.phase === "offer" ? "100%" : "0%";
    }
  }

  function stepGives(d, who, deeds, cards) {
    const parts = deeds.map((n) => `${n} ${prop(n).name}`);
    if (d.cash && d.cash_from === who) parts.push(`${money(d.cash)} ${board.currency}`);
    if (cards.length) parts.push(words().jailcards(cards.length));
    return `${t("gives", { who: tokenOf(who) })}: ${parts.length ? parts.join(", ") : t("nothing")}`;
  }

  function renderStep(s) {
    const box = $("step");
    const st = s.step;
    const a = s.auction;
    let head = "";
    let rows = [];
    if (st && st.kind === "interest") {
      head = t("interest", { n: `${st.number} ${prop(st.number).name}` });
      rows = [st.card != null ? tokenOf(st.card) : "", t("keep", { n: `${money(st.keep)} ${board.currency}` }), t("lift", { n: `${money(st.lift)} ${board.currency}` })];
    } else if (st && (st.kind === "trade_offer" || st.kind === "trade") && st.first != null && st.second != null) {
      head = t(st.kind === "trade_offer" ? "tradeoffer" : "trade");
      rows = [stepGives(st, st.first, st.deeds_first, st.cards_first), stepGives(st, st.second, st.deeds_second, st.cards_second)];
    } else if (st && st.kind === "session") {
      head = words().session[st.session].replace("{who}", tokenOf(st.card));
    } else if (a && a.series) {
      head = t("series", { i: a.series[0], n: a.series[1] });
    }
    if (!head) { box.hidden = true; box.dataset.kind = ""; return; }
    box.hidden = false;
    box.dataset.kind = st ? st.kind : "series";
    $("step-head").textContent = head;
    $("step-rows").innerHTML = rows.filter(Boolean).map((r) => `<li>${esc(r)}</li>`).join("");
  }

  function renderGameOver(s) {
    const box = $("gameover");
    if (!s.game_over) { box.hidden = true; return; }
    box.hidden = false;
    $("winner").textContent = s.winner != null ? t("wins", { who: tokenOf(s.winner) }) : t("nowinner");
    $("ranking").innerHTML = s.ranking
      .map((card) => {
        const p = s.players.find((q) => q.card === card);
        if (p && buildings()) return `<li>${esc(p.label)}: ${esc(t("worth"))} ${money(p.wealth)} ${esc(board.currency)}</li>`;
        return p ? `<li>${esc(p.label)}: ${money(p.balance)} ${esc(board.currency)} ${esc(t("plusprops", { n: money(p.worth) }))}</li>` : "";
      })
      .join("");
    const img = $("chart");
    if (s.chart && img.getAttribute("src") !== s.chart) {
      img.setAttribute("src", s.chart);
      $("chart-link").setAttribute("href", s.chart); // a tap opens it full size
      $("chart-link").hidden = false;
    }
  }

  function renderLog(s) {
    const list = $("log");
    if (!s.transactions.length) {
      list.innerHTML = `<li class="empty">${esc(t("notx"))}</li>`;
      return;
    }
    list.innerHTML = s.transactions
      .map((tx) => {
        const when = new Date(tx.at * 1000).toLocaleTimeString(locale, { hour12: false });
        return `<li class="tx${tx.undoable ? " undoable" : ""}" data-n="${tx.n}">
          <span class="n">#${tx.n}</span><span class="title">${esc(tx.title)}</span><span class="when">${esc(when)}</span>
          ${tx.detail ? `<span class="detail">${esc(tx.detail)}</span>` : ""}
          ${tx.undoable ? `<span class="undo-badge">${esc(t("undo"))}</span>` : ""}
        </li>`;
      })
      .join("");
  }

  function renderLcd(s) {
    const lcd = $("lcd");
    const screen = s.screen;
    lcd.classList.toggle("dark", !s.on || !screen || screen.off);
    if (!s.on || !screen || screen.off) { $("lcd-lines").textContent = t("off"); return; }
    const lines = screen.lines.length ? screen.lines.slice() : [screen.text];
    $("lcd-lines").textContent = lines.join("\n");
  }

  function renderDamage(s) {
    // damage found in the journal, shown until a person acknowledges it
    const d = $("damage");
    d.hidden = !s.journal_damage;
    d.textContent = s.journal_damage || "";
  }

  function render(s) {
    current = s;
    renderDamage(s);
    if (setLanguage(s.lang || board.language)) buildBoard();
    renderPlayers(s);
    renderAuction(s);
    renderStep(s);
    renderGameOver(s);
    renderBoard(s);
    renderLog(s);
    renderLcd(s);
    document.body.dataset.version = String(s.version);
    document.body.dataset.seq = String(s.seq);
    const entry = { version: s.version, seq: s.seq, t: performance.timeOrigin + performance.now(), frame: null };
    probe.renders.push(entry);
    if (probe.renders.length > 5000) probe.renders.splice(0, 1000);
    requestAnimationFrame(() => { entry.frame = performance.timeOrigin + performance.now(); });
  }

  // ------------------------------------------------------------------ wiring

  function setConn(ok, why) {
    const c = $("conn");
    c.textContent = ok ? t("live") : t(why || "reconnecting");
    c.classList.toggle("off", !ok);
  }

  function connect() {
    const source = new EventSource("/events");
    source.onopen = () => setConn(true);
    source.onerror = () => setConn(false);
    source.onmessage = (ev) => {
      setConn(true);
      render(JSON.parse(ev.data));
    };
  }

  async function start() {
    try {
      const response = await fetch("/board.json", { cache: "no-store" });
      if (!response.ok) throw new Error(`board: HTTP ${response.status}`);
      board = await response.json();
    } catch (err) {
      setConn(false);
      setTimeout(start, 1000);
      return;
    }
    setLanguage(board.language || "en");
    setConn(false, "connecting");
    $("edition").textContent = board.name;
    buildBoard();
    probe.board = true;
    connect();
  }

  start();
})();

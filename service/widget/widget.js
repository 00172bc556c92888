/* AI hardware knowledge base: the embeddable chat widget.
 *
 * One snippet adds a launcher and a chat panel:
 *   <script src="https://HOST/widget.js" data-endpoint="https://HOST" defer></script>
 * The same file defines <kb-chat> for an inline panel.
 * Everything renders inside a shadow root, and every text from the API is
 * inserted with textContent, never as HTML.
 */
(() => {
  "use strict";
  if (customElements.get("kb-chat")) return;

  const SCRIPT = document.currentScript;
  const STRINGS = {
    en: { title: "Ask about AI hardware", placeholder: "Ask a question… (Enter to send, Shift+Enter for a new line)",
      send: "Send", open: "Open the AI hardware assistant", close: "Close", thinking: "Searching the knowledge base…",
      noAnswer: "No confident answer. These passages may be related:", sources: "Sources", source: "source",
      article: "article", helpful: "Helpful", notHelpful: "Not helpful", thanks: "Thanks for the feedback.",
      network: "The knowledge base could not be reached. Please try again.",
      blocked: "This site is not allowed to use the knowledge base.",
      tooLarge: "That question is too long.", invalid: "Please check the question: ",
      rateLimited: "Too many questions at once. Try again in {s} s.", specs: "Specifications", conflict: "Sources disagree on this value",
      empty: "Type a question first.", you: "You", assistant: "Assistant",
      offTopic: "Sorry, that is outside what this assistant knows: it answers questions about AI training hardware.",
      unknownName: "The knowledge base says nothing about {names}, so it cannot answer that.",
      noFact: "The knowledge base has no such value. These passages are about the same hardware:",
      tryAsking: "You could ask, for example:", quotedIn: "quoted in {lang}",
      suggestions: ["How much memory does the NVIDIA A100 have?", "What are the limits of TPUs?",
        "Which is cheaper to train on, TPU or GPU?"],
      langs: { en: "English", ru: "Russian", zh: "Chinese" } },
    ru: { title: "Вопросы об оборудовании для ИИ", placeholder: "Задайте вопрос… (Enter — отправить, Shift+Enter — новая строка)",
      send: "Отправить", open: "Открыть помощника", close: "Закрыть", thinking: "Ищу в базе знаний…",
      noAnswer: "Уверенного ответа нет. Возможно, помогут эти фрагменты:", sources: "Источники", source: "источник",
      article: "статья", helpful: "Полезно", notHelpful: "Не помогло", thanks: "Спасибо за отзыв.",
      network: "База знаний недоступна. Попробуйте ещё раз.",
      blocked: "Этому сайту не разрешено обращаться к базе знаний.",
      tooLarge: "Вопрос слишком длинный.", invalid: "Проверьте вопрос: ",
      rateLimited: "Слишком много вопросов. Повторите через {s} с.", specs: "Характеристики", conflict: "Источники расходятся в этом значении",
      empty: "Сначала введите вопрос.", you: "Вы", assistant: "Помощник",
      offTopic: "Извините, это вне моей темы: я отвечаю на вопросы об оборудовании для обучения ИИ.",
      unknownName: "В базе знаний ничего нет о {names}, поэтому ответить не получится.",
      noFact: "В базе знаний нет такого значения. Эти фрагменты о том же оборудовании:",
      tryAsking: "Можно спросить, например:", quotedIn: "цитата на языке: {lang}",
      suggestions: ["Сколько памяти у Gaudi?", "Каковы ограничения TPU?", "Что дешевле для обучения: TPU или GPU?"],
      langs: { en: "английский", ru: "русский", zh: "китайский" } },
    zh: { title: "AI 硬件问答", placeholder: "请输入问题…（Enter 发送，Shift+Enter 换行）",
      send: "发送", open: "打开 AI 硬件助手", close: "关闭", thinking: "正在检索知识库…",
      noAnswer: "没有把握的答案。以下段落可能相关：", sources: "来源", source: "来源",
      article: "文章", helpful: "有帮助", notHelpful: "没帮助", thanks: "感谢反馈。",
      network: "无法连接知识库，请稍后再试。",
      blocked: "此网站未被允许使用该知识库。",
      tooLarge: "问题太长了。", invalid: "请检查问题：",
      rateLimited: "提问太频繁，请 {s} 秒后再试。", specs: "规格", conflict: "各来源的数值不一致",
      empty: "请先输入问题。", you: "你", assistant: "助手",
      offTopic: "抱歉，这超出了我的范围：我只回答有关 AI 训练硬件的问题。",
      unknownName: "知识库中没有关于 {names} 的内容，无法回答。",
      noFact: "知识库中没有这个数值。以下段落与同一硬件有关：",
      tryAsking: "可以这样问：", quotedIn: "引用原文：{lang}",
      suggestions: ["Trn1的FP32算力是多少？", "TPU 有哪些局限？", "训练用 GPU 还是 TPU 更便宜？"],
      langs: { en: "英文", ru: "俄文", zh: "中文" } },
  };

  const STYLE = `
    :host { all: initial; display: block; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
      color: var(--kb-text, #1d232a); --kb-accent: #2563eb; }
    :host([floating]) { position: fixed !important; z-index: 2147483000 !important; bottom: 16px !important; right: 16px !important;
      top: auto !important; left: auto !important; }
    :host([floating][position="bottom-left"]) { right: auto !important; left: 16px !important; }
    * { box-sizing: border-box; }
    button { font: inherit; cursor: pointer; }
    .launcher { width: 56px; height: 56px; border-radius: 50%; border: 0; background: var(--kb-accent); color: #fff;
      font-size: 24px; box-shadow: 0 4px 14px rgba(0,0,0,.25); display: block; margin-left: auto; }
    :host([position="bottom-left"]) .launcher { margin-left: 0; }
    .panel { display: flex; flex-direction: column; width: min(380px, calc(100vw - 32px)); height: min(560px, calc(100vh - 104px));
      background: var(--kb-bg, #fff); border: 1px solid #d0d7de; border-radius: 12px; box-shadow: 0 8px 30px rgba(0,0,0,.18);
      overflow: hidden; margin-bottom: 12px; }
    :host(:not([floating])) .panel { width: 100%; height: var(--kb-height, 520px); margin: 0; box-shadow: none; }
    .panel[hidden] { display: none; }
    header { display: flex; align-items: center; justify-content: space-between; padding: 10px 14px;
      background: var(--kb-accent); color: #fff; font-weight: 600; }
    header button { background: transparent; border: 0; color: #fff; font-size: 20px; line-height: 1; padding: 2px 6px; }
    .log { flex: 1; overflow-y: auto; padding: 12px; display: flex; flex-direction: column; gap: 10px; }
    .msg { padding: 8px 10px; border-radius: 10px; max-width: 100%; overflow-wrap: anywhere; white-space: pre-wrap; }
    .msg.user { align-self: flex-end; background: #eef2ff; }
    .msg.bot { align-self: stretch; background: #f6f8fa; white-space: normal; }
    .msg.error { background: #fef2f2; color: #991b1b; }
    .msg.status { color: #57606a; font-style: italic; background: transparent; padding: 0 4px; }
    .answer { margin: 0 0 8px; }
    .marker { border: 0; background: none; color: var(--kb-accent); padding: 0 1px; font-weight: 600; }
    .marker:focus-visible, .card:focus-visible, textarea:focus-visible, button:focus-visible { outline: 2px solid var(--kb-accent); outline-offset: 2px; }
    .cards { display: flex; flex-direction: column; gap: 8px; margin-top: 6px; }
    .card { border: 1px solid #d0d7de; border-radius: 8px; padding: 8px; background: #fff; }
    .card.target { border-color: var(--kb-accent); box-shadow: 0 0 0 2px var(--kb-accent); }
    .card .meta { font-size: 12px; color: #57606a; margin-bottom: 4px; }
    .card .title { font-weight: 600; font-size: 13px; }
    .card .text { font-size: 13px; max-height: 9em; overflow-y: auto; white-space: pre-wrap; }
    .card mark { background: #fff3bf; color: inherit; }
    .card .links a { font-size: 12px; color: var(--kb-accent); margin-right: 10px; }
    table.specs { border-collapse: collapse; font-size: 12px; margin: 6px 0; width: 100%; }
    table.specs td, table.specs th { border: 1px solid #d0d7de; padding: 3px 5px; text-align: left; }
    table.specs tr.conflict td.value { background: #fff8c5; }
    table.specs caption { text-align: left; font-weight: 600; }
    table.specs td.source { font-size: 11px; }
    p.spec-answer { margin: 6px 0 2px; font-size: 13px; }
    p.spec-answer.lead { font-size: 15px; font-weight: 600; margin: 0 0 6px; }
    .source-lang { display: inline-block; font-size: 11px; color: #57606a; border: 1px solid #d0d7de; border-radius: 4px;
      padding: 0 4px; margin-left: 4px; }
    .suggestions { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0 6px; }
    .suggestions button { border: 1px solid var(--kb-accent); color: var(--kb-accent); background: #fff; border-radius: 14px;
      padding: 2px 10px; font-size: 13px; }
    table.row { border-collapse: collapse; font-size: 12px; margin: 4px 0; white-space: normal; }
    table.row th, table.row td { border: 1px solid #d0d7de; padding: 2px 5px; text-align: left; }
    table.row tr.quoted td { background: #fff3bf; font-weight: 600; }
    .feedback { display: flex; gap: 6px; align-items: center; margin-top: 6px; font-size: 12px; color: #57606a; }
    .feedback button { border: 1px solid #d0d7de; background: #fff; border-radius: 6px; padding: 2px 8px; }
    .feedback button[aria-pressed="true"] { border-color: var(--kb-accent); background: #eef2ff; }
    form { display: flex; gap: 8px; padding: 10px; border-top: 1px solid #d0d7de; background: var(--kb-bg, #fff); }
    textarea { flex: 1; resize: none; font: inherit; padding: 8px; border: 1px solid #d0d7de; border-radius: 8px; min-height: 40px; max-height: 120px; }
    form button { border: 0; border-radius: 8px; padding: 0 14px; background: var(--kb-accent); color: #fff; }
    form button:disabled { opacity: .6; cursor: wait; }
  `;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }

  function pickLang(option) {
    const wanted = (option && option !== "auto" ? option : document.documentElement.lang || navigator.language || "en")
      .slice(0, 2).toLowerCase();
    return STRINGS[wanted] ? wanted : "en";
  }

  class KbChat extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const option = (name, fallback) => this.getAttribute(name) ?? this.getAttribute("data-" + name) ?? fallback;
      this.endpoint = option("endpoint", "").replace(/\/+$/, "");
      this.t = STRINGS[pickLang(option("lang", "auto"))];
      // The host element lives in the page, where `* { ... !important }` can reach it; inline
      // !important declarations outrank any page stylesheet, so the box the panel sits in is fixed.
      const lock = { margin: "0", padding: "0", border: "0", "box-sizing": "border-box", float: "none", transform: "none",
        "min-width": "0", "min-height": "0", "max-width": "none", "max-height": "none", width: "auto", height: "auto",
        display: "block", visibility: "visible", opacity: "1", "font-size": "15px" };
      for (const [property, value] of Object.entries(lock)) this.style.setProperty(property, value, "important");
      const root = this.attachShadow({ mode: "open" });
      root.append(el("style", {}, STYLE));
      const accent = option("accent", "");
      if (/^#[0-9a-f]{3,8}$/i.test(accent)) this.style.setProperty("--kb-accent", accent);
      this.floating = this.hasAttribute("floating");
      const title = option("title", this.t.title);

      this.log = el("div", { class: "log", role: "log", "aria-live": "polite", "aria-label": title });
      this.input = el("textarea", { rows: "1", placeholder: this.t.placeholder, "aria-label": this.t.placeholder,
        maxlength: "1000" });
      this.sendButton = el("button", { type: "submit" }, this.t.send);
      const form = el("form", { onsubmit: (event) => { event.preventDefault(); this.ask(); } }, this.input, this.sendButton);
      this.input.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.shiftKey && !event.isComposing) { event.preventDefault(); this.ask(); }
      });
      const header = el("header", {}, el("span", { class: "heading" }, title));
      this.panel = el("section", { class: "panel", role: "dialog", "aria-label": title }, header, this.log, form);
      if (this.floating) {
        header.append(el("button", { type: "button", class: "close", "aria-label": this.t.close,
          onclick: () => this.setOpen(false) }, "×"));
        this.launcher = el("button", { type: "button", class: "launcher", "aria-label": this.t.open,
          "aria-expanded": "false", onclick: () => this.setOpen(this.panel.hidden) }, "?");
        this.panel.hidden = true;
        root.append(this.panel, this.launcher);
        this.panel.addEventListener("keydown", (event) => { if (event.key === "Escape") this.setOpen(false); });
        if (option("open", "false") === "true") this.setOpen(true, false);
      } else {
        root.append(this.panel);
      }
      this.turn = 0;
    }

    setOpen(open, focus = true) {
      this.panel.hidden = !open;
      this.launcher.setAttribute("aria-expanded", String(open));
      if (open && focus) this.input.focus();
      if (!open && focus) this.launcher.focus();
    }

    say(kind, ...children) {
      const node = el("div", { class: "msg " + kind }, ...children);
      this.log.append(node);
      node.scrollIntoView({ block: "end" });
      return node;
    }

    async ask() {
      const question = this.input.value.trim();
      if (!question) { this.say("status", this.t.empty); return; }
      this.input.value = "";
      this.say("user", question);
      const status = this.say("status", this.t.thinking);
      this.sendButton.disabled = true;
      this.log.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(this.endpoint + "/v1/ask", {
          method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ question, top_k: 5 }),
        });
        const body = await response.json().catch(() => ({}));
        status.remove();
        if (!response.ok) { this.showError(response, body); return; }
        this.showAnswer(body);
      } catch (error) {
        status.remove();
        // A CORS refusal and a dead server look the same to a page: both are a failed fetch.
        this.say("error", this.endpoint && new URL(this.endpoint, location.href).origin !== location.origin
          ? this.t.network + " " + this.t.blocked : this.t.network);
      } finally {
        this.sendButton.disabled = false;
        this.log.removeAttribute("aria-busy");
      }
    }

    showError(response, body) {
      if (response.status === 429) {
        const seconds = response.headers.get("Retry-After") || "60";
        this.say("error", this.t.rateLimited.replace("{s}", seconds));
      } else if (response.status === 413) {
        this.say("error", this.t.tooLarge);
      } else if (response.status === 422 || response.status === 400) {
        this.say("error", this.t.invalid + (body.detail || body.title || response.status));
      } else {
        this.say("error", this.t.network);
      }
    }

    showAnswer(body) {
      const turn = ++this.turn;
      const cardId = (n) => `kb-${turn}-${n}`;
      const message = this.say("bot");
      const citations = body.citations || [];
      // Declines and notes speak the question's language, whatever the page's.
      const t = STRINGS[body.lang] || this.t;
      const specs = Array.isArray(body.specs) ? body.specs : [];
      const note = body.spec_answer && body.spec_answer.text;
      // A value from the fact table, or a relation the corpus states, is read first; the quoted sentences are
      // its evidence. A comparison one side of which has no value does not lead (kb.response.spec_leads).
      const sa = body.spec_answer;
      const valued = new Set(specs.filter((s) => s.value !== null && s.value !== undefined).map((s) => s.entity));
      const oneSided = Boolean(sa && sa.kind === "comparison" && !sa.comparable && !sa.relation && valued.size < 2);
      const leads = Boolean(sa && sa.relation) || (specs.length > 0 && !oneSided);
      if (body.answerable && leads && note) message.append(el("p", { class: "spec-answer lead" }, note));
      if (body.answerable && body.answer) {
        const answer = el("p", { class: "answer" });
        // The answer is plain text with [n] markers; split it and turn markers into buttons.
        for (const part of body.answer.text.split(/(\[\d+\])/)) {
          const match = /^\[(\d+)\]$/.exec(part);
          if (match && citations[Number(match[1]) - 1]) {
            const n = Number(match[1]);
            answer.append(el("button", { type: "button", class: "marker", "aria-label": `${this.t.source} ${n}`,
              onclick: () => this.jump(message, cardId(n)) }, `[${n}]`));
          } else {
            answer.append(document.createTextNode(part));
          }
        }
        const source = body.answer.source_lang;
        if (source && body.lang && source !== body.lang) {
          answer.append(el("span", { class: "source-lang", lang: t === this.t ? "" : body.lang },
            t.quotedIn.replace("{lang}", t.langs[source] || source)));
        }
        message.append(answer);
        if (!leads && note) message.append(el("p", { class: "spec-answer" }, note));
      } else if (body.abstain_reason === "off_topic") {
        message.append(el("p", { class: "answer decline", lang: body.lang || "" }, t.offTopic));
        message.append(el("p", { class: "try" }, t.tryAsking));
        const list = el("div", { class: "suggestions" });
        for (const q of t.suggestions) {
          list.append(el("button", { type: "button", onclick: () => { this.input.value = q; this.ask(); } }, q));
        }
        message.append(list);
        return;
      } else if (body.abstain_reason === "unknown_name" && (body.unknown_names || []).length) {
        message.append(el("p", { class: "answer decline" }, t.unknownName.replace("{names}", body.unknown_names.join(", "))));
      } else if (body.abstain_reason === "no_fact") {
        if (note) message.append(el("p", { class: "answer decline" }, note));
        message.append(el("p", {}, t.noFact));
      } else {
        message.append(el("p", { class: "answer" }, t.noAnswer));
      }
      if (specs.length) message.append(this.specsTable(specs));
      const cards = el("div", { class: "cards", "aria-label": this.t.sources });
      for (const c of citations) cards.append(this.card(c, cardId(c.n)));
      message.append(cards);
      if (body.answerable) message.append(this.feedback(body));
      message.scrollIntoView({ block: "start" });
    }

    card(c, id) {
      const text = el("div", { class: "text" });
      const start = Number.isInteger(c.quote_start) ? c.quote_start - c.char_start : -1;
      const end = Number.isInteger(c.quote_end) ? c.quote_end - c.char_start : -1;
      const quoted = start >= 0 && end > start && end <= c.text.length;
      // Markdown table rows become a small table; every other run of lines stays text with its quote marked.
      let offset = 0;
      let rows = [];
      const flushRows = () => {
        if (rows.length) text.append(this.rowTable(rows, quoted ? start : -1, quoted ? end : -1));
        rows = [];
      };
      for (const line of c.text.split(/(?<=\n)/)) {
        const from = offset;
        offset += line.length;
        if (/^\s*\|.*\|\s*$/.test(line)) { rows.push({ line: line.trim(), from, to: offset }); continue; }
        flushRows();
        if (quoted && start < offset && end > from) {
          const a = Math.max(start, from) - from;
          const b = Math.min(end, offset) - from;
          text.append(line.slice(0, a), el("mark", {}, line.slice(a, b)), line.slice(b));
        } else {
          text.append(line);
        }
      }
      flushRows();
      const links = el("div", { class: "links" });
      if (c.url && /^https?:\/\//.test(c.url)) links.append(el("a", { href: c.url, target: "_blank", rel: "noopener noreferrer" }, this.t.source));
      links.append(el("a", { href: `${this.endpoint}/articles/${encodeURIComponent(c.article_id)}#${encodeURIComponent(c.anchor)}`,
        target: "_blank", rel: "noopener" }, this.t.article));
      return el("article", { class: "card", id, tabindex: "-1" },
        el("div", { class: "meta" }, el("span", { class: "title" }, `[${c.n}] ${c.title}`), ` · ${c.lang} · ${c.section}`),
        text, links);
    }

    rowTable(rows, start, end) {
      const cells = (line) => line.replace(/^\|/, "").replace(/\|$/, "").split("|").map((x) => x.trim().replace(/\*\*/g, ""));
      const underline = (line) => /^\|?[\s:|-]+\|?$/.test(line);
      const hasHeader = rows.length > 1 && underline(rows[1].line);
      const table = el("table", { class: "row" });
      rows.forEach((row, i) => {
        if (underline(row.line)) return;
        const isQuoted = start >= 0 && start < row.to && end > row.from;
        const tr = el("tr", { class: isQuoted ? "quoted" : "" });
        for (const cell of cells(row.line)) tr.append(el(hasHeader && i === 0 ? "th" : "td", {}, cell));
        if (isQuoted) tr.setAttribute("aria-current", "true");
        table.append(tr);
      });
      return table;
    }

    specsTable(specs) {
      // One attribute or one entity across all rows goes into the caption, so the value gets the width.
      const entities = new Set(specs.map((s) => s.entity));
      const labels = new Set(specs.map((s) => s.label || s.attribute));
      const caption = [this.t.specs, labels.size === 1 ? [...labels][0] : ""].filter(Boolean).join(" · ");
      const table = el("table", { class: "specs" }, el("caption", {}, caption));
      for (const s of specs) {
        const c = s.citation || {};
        const source = c.article_id
          ? el("a", { href: `${this.endpoint}/articles/${encodeURIComponent(c.article_id)}#${encodeURIComponent(c.anchor || "")}`,
            target: "_blank", rel: "noopener", title: [c.context, s.quote].filter(Boolean).join("\n") }, c.title || c.article_id)
          : "";
        const value = el("td", { class: "value" }, s.value_display || s.display || `${s.value ?? ""} ${s.unit ?? ""}`);
        if (s.conflict) value.append(el("span", { class: "conflict", title: this.t.conflict }, " ⚠"));
        const cells = [];
        if (entities.size > 1) cells.push(el("td", { class: "entity" }, s.entity_name || s.entity || ""));
        if (labels.size > 1) cells.push(el("td", { class: "label" }, s.label || s.attribute || ""));
        cells.push(value, el("td", { class: "source" }, source));
        table.append(el("tr", { class: s.conflict ? "spec conflict" : "spec" }, ...cells));
      }
      return table;
    }

    jump(message, id) {
      const card = message.querySelector("#" + CSS.escape(id));
      if (!card) return;
      message.querySelectorAll(".card.target").forEach((other) => other.classList.remove("target"));
      card.classList.add("target");
      card.scrollIntoView({ block: "nearest" });
      card.focus();
    }

    feedback(body) {
      const box = el("div", { class: "feedback" });
      const send = async (rating, button) => {
        box.querySelectorAll("button").forEach((b) => { b.disabled = true; b.setAttribute("aria-pressed", String(b === button)); });
        try {
          const response = await fetch(this.endpoint + "/v1/feedback", {
            method: "POST", headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ question: body.question, rating, chunk_ids: body.citations.map((c) => c.chunk_id),
              answer: body.answer ? body.answer.text : null }),
          });
          box.append(el("span", { role: "status" }, response.ok ? this.t.thanks : this.t.network));
        } catch (error) {
          box.append(el("span", { role: "status" }, this.t.network));
        }
      };
      const up = el("button", { type: "button", "aria-pressed": "false", "aria-label": this.t.helpful, onclick: () => send("up", up) }, "👍");
      const down = el("button", { type: "button", "aria-pressed": "false", "aria-label": this.t.notHelpful, onclick: () => send("down", down) }, "👎");
      box.append(up, down);
      return box;
    }
  }

  customElements.define("kb-chat", KbChat);

  // Loaded by the one-line snippet: add the floating launcher with the script's options.
  if (SCRIPT && !SCRIPT.hasAttribute("data-no-launcher")) {
    const add = () => {
      const chat = document.createElement("kb-chat");
      chat.setAttribute("floating", "");
      const fallback = new URL(SCRIPT.src, location.href).origin;
      chat.setAttribute("endpoint", SCRIPT.dataset.endpoint || fallback);
      for (const name of ["title", "lang", "position", "open", "accent"]) {
        if (SCRIPT.dataset[name]) chat.setAttribute(name, SCRIPT.dataset[name]);
      }
      document.body.append(chat);
    };
    if (document.body) add(); else document.addEventListener("DOMContentLoaded", add);
  }
})();

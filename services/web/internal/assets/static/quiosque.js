// ponto's kiosk (coletor compartilhado): the device keeps its credential
// in localStorage; employees identify themselves by CPF and PIN or by
// their badge's QR code, see their name and next tipo, confirm, and get
// the receipt's QR code. Every call goes through this site's relays
// (/quiosque/...), which add the credential as the API's bearer token.
// Off-line, a badge punch is queued signed by the kiosk's own key
// (fila.js) and sent to /quiosque/offline when the connection returns;
// CPF and PIN need the server (the PIN is checked and locked there).
"use strict";

(function () {
  var KEY = "ponto.quiosque.credencial";
  var csrf = document.querySelector('meta[name="csrf-token"]').getAttribute("content");
  var $ = function (id) { return document.getElementById(id); };
  var offset = 0, pending = null, idle = null, kioskId = 0;

  function cred() { return localStorage.getItem(KEY) || ""; }

  function call(method, path, body, extra) {
    var headers = { Accept: "application/json", "X-Quiosque-Credencial": cred(), "X-CSRF-Token": csrf };
    if (body) { headers["Content-Type"] = "application/json"; }
    for (var k in (extra || {})) { headers[k] = extra[k]; }
    return fetch(path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined, cache: "no-store" })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (j) {
          if (!r.ok) { var e = new Error(j.message || "erro inesperado"); e.status = r.status; e.code = j.code; throw e; }
          return j;
        });
      });
  }

  function show(id, on) { $(id).hidden = !on; }

  function message(text) {
    $("q-mensagem").textContent = text || "";
    show("q-mensagem", !!text);
  }

  // ---- set-up ------------------------------------------------------------
  function open() {
    return call("GET", "/quiosque/estado").then(function (k) {
      offset = Date.parse(k.agora) - Date.now();
      zone(k.fusoHorario);
      render();
      $("q-nome").textContent = k.nome;
      show("q-configurar", false);
      show("q-principal", true);
      reset();
      kioskId = k.id;
      return offlineKey().then(function () {
        $("quiosque").setAttribute("data-offline", "pronto"); // badge punches can now be queued
        return drain();
      }).catch(function () { /* retried on the next load */ });
    });
  }

  // ---- off-line: the kiosk's key and its queue (fila.js) ----------------
  function owner() { return "quiosque:" + kioskId; }

  function offlineKey() {
    return PontoFila.criarChave(owner(), function (spki) {
      return call("PUT", "/quiosque/chave", { chavePublica: spki, enviadoEm: new Date().toISOString() })
        .then(function () { return kioskId; });
    });
  }

  function queued() {
    return PontoFila.listar(owner()).then(function (xs) {
      var n = xs.filter(function (m) { return m.estado === PontoFila.AGUARDANDO; }).length;
      $("q-fila").textContent = n ? n + (n === 1 ? " marcação aguardando conexão" : " marcações aguardando conexão") : "";
      show("q-fila", n > 0);
      return xs;
    });
  }

  var draining = null;
  // drain sends the queued badge punches, in punch order; a network or
  // server failure keeps them for the next try.
  function drain() {
    if (!kioskId || draining) { return draining || Promise.resolve(); }
    draining = queued().then(function (xs) {
      var waiting = xs.filter(function (m) { return m.estado === PontoFila.AGUARDANDO; });
      if (!waiting.length) { return; }
      return call("POST", "/quiosque/offline", {
        enviadoEm: new Date().toISOString(),
        marcacoes: waiting.map(function (m) { return { id: m.id, horario: m.horario, endereco: m.endereco, cracha: m.cracha, assinatura: m.assinatura }; })
      }).then(function (r) { return PontoFila.anotar(waiting, r.resultados || []); });
    }).catch(function () {}).then(function () { draining = null; return queued(); });
    return draining;
  }
  window.addEventListener("online", function () { drain(); });
  setInterval(function () { if (navigator.onLine) { drain(); } }, 60000); // where "online" never fires

  function offline(e) { return !navigator.onLine || (e && !e.status); }

  // queueBadge keeps a badge punch made now while off-line.
  function queueBadge(cracha) {
    var m = { id: PontoFila.aleatorio(), horario: new Date().toISOString(), endereco: "", cracha: cracha };
    return PontoFila.guardar(owner(), m, function (id) {
      return ["ponto-quiosque-1", String(id), m.id, m.horario, m.endereco, m.cracha];
    }).then(function (ok) {
      if (!ok) { message("sem conexão e sem chave off-line: conecte o quiosque"); return; }
      reset();
      $("q-aviso").textContent = "Sem conexão: marcação guardada neste quiosque, aguardando conexão. Ela será enviada quando a conexão voltar.";
      show("q-aviso", true);
      idle = setTimeout(function () { show("q-aviso", false); }, 15000);
      return queued();
    });
  }

  $("form-configurar").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var v = $("credencial").value.trim();
    if (!v) { $("credencial-erro").textContent = "digite o código do quiosque"; return; }
    localStorage.setItem(KEY, v);
    open().catch(function (e) {
      localStorage.removeItem(KEY);
      $("credencial").setAttribute("aria-invalid", "true");
      $("credencial-erro").textContent = e.status === 401 ? "código não reconhecido ou revogado" : e.message;
    });
  });

  $("q-esquecer").addEventListener("click", function () {
    localStorage.removeItem(KEY);
    location.reload();
  });

  $("q-tela-cheia").addEventListener("click", function () {
    if (document.documentElement.requestFullscreen) { document.documentElement.requestFullscreen().catch(function () {}); }
  });

  // ---- clock (the server's time: Anexo IX item 3, with seconds) ---------
  var fmtHora, fmtData;
  function zone(tz) {
    try {
      fmtHora = new Intl.DateTimeFormat("pt-BR", { timeZone: tz, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
      fmtData = new Intl.DateTimeFormat("pt-BR", { timeZone: tz, weekday: "long", day: "numeric", month: "long", year: "numeric" });
      $("q-relogio").setAttribute("data-tz", tz || "");
    } catch (e) { zone(undefined); }
  }
  zone(undefined); // the device's own until the kiosk's company is known
  function render() {
    var now = new Date(Date.now() + offset);
    $("q-relogio").textContent = fmtHora.format(now);
    $("q-data").textContent = fmtData.format(now);
    return now;
  }
  function tick() {
    setTimeout(tick, 1000 - (render().getTime() % 1000));
  }

  // ---- identification ----------------------------------------------------
  var field = $("q-cpf");
  ["q-cpf", "q-pin"].forEach(function (id) { $(id).addEventListener("focus", function () { field = $(id); }); });
  document.querySelectorAll("[data-tecla]").forEach(function (b) {
    b.addEventListener("click", function () {
      var k = b.getAttribute("data-tecla");
      if (k === "apagar") { field.value = field.value.slice(0, -1); }
      else if (k === "proximo") { field = field.id === "q-cpf" ? $("q-pin") : $("q-cpf"); }
      else if (field.value.length < (field.maxLength > 0 ? field.maxLength : 14)) { field.value += k; }
      field.focus();
    });
  });

  function identify(body) {
    message("");
    show("q-aviso", false);
    return call("POST", "/quiosque/identificar", body).then(function (who) {
      pending = body;
      $("q-quem").textContent = who.nome;
      $("q-tipo").textContent = who.proximoTipo;
      show("q-identificar", false);
      show("q-confirmar", true);
      $("q-confirmar-botao").focus();
      stopCamera();
      idle = setTimeout(reset, 30000); // nobody confirmed: back to the start
    }).catch(function (e) {
      // The connection fell during the call: a badge is queued all the same.
      if (body.cracha && kioskId && offline(e)) { return queueBadge(body.cracha); }
      fail(e);
    });
  }

  function fail(e) {
    if (offline(e)) { message("Sem conexão: use o crachá; CPF e PIN precisam de conexão."); return; }
    if (e.code === "csrf") { location.reload(); return; }
    if (e.status === 401) { localStorage.removeItem(KEY); location.reload(); return; }
    message(e.message);
  }

  $("form-pin").addEventListener("submit", function (ev) {
    ev.preventDefault();
    identify({ cpf: $("q-cpf").value, pin: $("q-pin").value });
  });
  $("form-cracha").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var cracha = $("q-cracha").value.trim();
    if (kioskId && !navigator.onLine) { queueBadge(cracha); return; }
    identify({ cracha: cracha });
  });

  function uuid() {
    if (crypto.randomUUID) { return crypto.randomUUID(); }
    var b = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
  }

  $("q-confirmar-botao").addEventListener("click", function () {
    clearTimeout(idle);
    var body = pending;
    if (body.cracha && kioskId && !navigator.onLine) { queueBadge(body.cracha); return; }
    $("q-confirmar-botao").disabled = true;
    call("POST", "/quiosque/marcar", body, { "Idempotency-Key": uuid() }).then(function (m) {
      $("q-recibo-nome").textContent = m.nome;
      $("q-recibo-tipo").textContent = m.registro.tipo;
      $("q-recibo-hora").textContent = fmtHora.format(new Date(m.registro.horarioRegistro));
      $("q-recibo-nsr").textContent = m.comprovante.nsr;
      $("q-recibo-qr").src = m.comprovante.qrCode;
      show("q-confirmar", false);
      show("q-recibo", true);
      $("q-concluir").focus();
      idle = setTimeout(reset, 60000);
    }).catch(fail).then(function () { $("q-confirmar-botao").disabled = false; });
  });
  $("q-cancelar").addEventListener("click", reset);
  $("q-concluir").addEventListener("click", reset);

  function reset() {
    clearTimeout(idle);
    pending = null;
    ["q-cpf", "q-pin", "q-cracha"].forEach(function (id) { $(id).value = ""; });
    $("q-recibo-qr").removeAttribute("src");
    show("q-confirmar", false);
    show("q-recibo", false);
    show("q-identificar", true);
    field = $("q-cpf");
    startCamera();
  }

  // ---- badge camera (BarcodeDetector where the browser has it) ----------
  var stream = null, scanning = false;
  function startCamera() {
    if (!("BarcodeDetector" in window) || !navigator.mediaDevices) { return; }
    show("q-ler-cracha", true);
  }
  $("q-ler-cracha").addEventListener("click", function () {
    var detector = new window.BarcodeDetector({ formats: ["qr_code"] });
    navigator.mediaDevices.getUserMedia({ video: { facingMode: "user" } }).then(function (s) {
      stream = s;
      var v = $("q-camera");
      v.srcObject = s;
      show("q-camera", true);
      return v.play().then(function () {
        scanning = true;
        (function scan() {
          if (!scanning) { return; }
          detector.detect(v).then(function (codes) {
            var hit = codes.find(function (c) { return c.rawValue.indexOf("PONTO-CRACHA-") === 0; });
            if (hit) { $("q-cracha").value = hit.rawValue; identify({ cracha: hit.rawValue }); return; }
            setTimeout(scan, 250);
          }).catch(function () { setTimeout(scan, 500); });
        })();
      });
    }).catch(function () { message("não foi possível usar a câmera; digite o código do crachá"); });
  });
  function stopCamera() {
    scanning = false;
    if (stream) { stream.getTracks().forEach(function (t) { t.stop(); }); stream = null; }
    show("q-camera", false);
  }

  tick();
  if (cred()) {
    open().catch(function (e) { if (e.status === 401) { localStorage.removeItem(KEY); } else { message(e.message); } });
  }
})();

// ponto web client: the punch page's clock and punch, and confirmations.
// Everything works without this file except the live clock; it only adds
// the server-corrected clock, the position and retries without a reload.
"use strict";

(function () {
  var csrf = document.querySelector('meta[name="csrf-token"]');
  csrf = csrf ? csrf.getAttribute("content") : "";

  // ---- clock ------------------------------------------------------------
  // The phone's clock is not trusted: the offset to the server's clock is
  // measured against /tempo (the sample with the shortest round trip wins)
  // and the time is shown in the employee's time zone.
  var relogio = document.getElementById("relogio");
  var offset = 0;

  function measure(samples) {
    var best = null;
    function one(i) {
      if (i >= samples) { return Promise.resolve(best); }
      var t0 = Date.now();
      return fetch("/tempo", { cache: "no-store", headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (body) {
          var t1 = Date.now(), rtt = t1 - t0;
          if (best === null || rtt < best.rtt) {
            best = { rtt: rtt, offset: body.agora + rtt / 2 - t1 };
          }
          return one(i + 1);
        });
    }
    return one(0);
  }

  if (relogio) {
    var tz = relogio.getAttribute("data-tz") || undefined;
    var fmt;
    try {
      fmt = new Intl.DateTimeFormat("pt-BR", { timeZone: tz, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    } catch (e) {
      fmt = new Intl.DateTimeFormat("pt-BR", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
    }
    var sync = document.getElementById("relogio-sincronia");
    var tick = function () {
      relogio.textContent = fmt.format(new Date(Date.now() + offset));
      relogio.setAttribute("data-offset", String(Math.round(offset)));
    };
    tick();
    setInterval(tick, 250);
    measure(3).then(function (best) {
      offset = best.offset;
      relogio.setAttribute("data-sincronizado", "true");
      if (sync) { sync.textContent = "sincronizado com o servidor"; }
    }).catch(function () {
      if (sync) { sync.textContent = "sem sincronia com o servidor; mostrando o relógio do aparelho"; }
    });
  }

  // ---- punch ------------------------------------------------------------
  var form = document.getElementById("bater");
  if (form) {
    var button = document.getElementById("botao-bater");
    var estado = document.getElementById("estado-bater");
    var falha = document.getElementById("falha-bater");
    var falhaTexto = document.getElementById("falha-texto");
    var retry = document.getElementById("tentar-de-novo");
    var busy = false;

    var position = function () {
      return new Promise(function (resolve) {
        if (!navigator.geolocation) {
          resolve({ endereco: "", aviso: "Este navegador não informa a localização." });
          return;
        }
        navigator.geolocation.getCurrentPosition(function (p) {
          resolve({ endereco: p.coords.latitude.toFixed(6) + ", " + p.coords.longitude.toFixed(6), aviso: "" });
        }, function (err) {
          var why = err.code === 1 ? "Você não permitiu o acesso à localização." : "Não foi possível obter a sua localização.";
          resolve({ endereco: "", aviso: why + " O ponto será registrado sem localização; a empresa verá isso no relatório." });
        }, { enableHighAccuracy: true, timeout: 10000, maximumAge: 60000 });
      });
    };

    var showFailure = function (text, canRetry) {
      falhaTexto.textContent = text;
      retry.hidden = !canRetry;
      falha.hidden = false;
      retry.focus();
    };

    var showReceipt = function (r) {
      document.getElementById("recibo-tipo").textContent = r.tipo;
      document.getElementById("recibo-data").textContent = r.data;
      document.getElementById("recibo-hora").textContent = r.hora;
      document.getElementById("recibo-nsr").textContent = r.nsr;
      document.getElementById("recibo-hash").textContent = r.hash;
      document.getElementById("recibo-pdf").setAttribute("href", r.comprovante);
      var recibo = document.getElementById("recibo");
      recibo.hidden = false;
      var li = document.createElement("li");
      li.textContent = r.hora.slice(0, 5) + " — " + r.tipo + " (NSR " + r.nsr + ")";
      document.getElementById("hoje").appendChild(li);
      var vazio = document.getElementById("hoje-vazio");
      if (vazio) { vazio.remove(); }
    };

    // send posts the punch with the form's Idempotency-Key; a network
    // failure keeps the key, so "Tentar novamente" replays the same punch.
    var send = function () {
      busy = true;
      button.disabled = true;
      falha.hidden = true;
      estado.textContent = "Obtendo a localização…";
      position().then(function (pos) {
        estado.textContent = (pos.aviso ? pos.aviso + " " : "") + "Registrando…";
        form.elements.endereco.value = pos.endereco;
        var body = new URLSearchParams(new FormData(form));
        return fetch(form.action, {
          method: "POST", body: body, credentials: "same-origin",
          headers: { Accept: "application/json", "X-CSRF-Token": csrf }
        }).then(function (resp) {
          return resp.json().catch(function () { return {}; }).then(function (data) {
            if (resp.ok) {
              estado.textContent = (pos.aviso ? pos.aviso + " " : "") + "Ponto registrado: " + data.registro.tipo + " às " + data.registro.hora + ".";
              showReceipt(data.registro);
              form.elements.chave.value = data.novaChave;
              document.getElementById("proximo-tipo").textContent = data.proximoTipo;
              button.textContent = "Registrar " + data.proximoTipo;
              return;
            }
            if (resp.status === 401 && data.redirect) {
              window.location.assign(data.redirect);
              return;
            }
            estado.textContent = "";
            // The API answered: the punch was not made (or was refused);
            // a 5xx may be retried with the same key.
            showFailure(data.message || "Não foi possível registrar o ponto.", resp.status >= 500);
          });
        }, function () {
          estado.textContent = "";
          showFailure("Falha de rede: não sabemos se o ponto foi registrado. Tente novamente — a mesma marcação não será duplicada.", true);
        });
      }).finally(function () {
        busy = false;
        button.disabled = false;
      });
    };

    // ---- off-line ---------------------------------------------------------
    // With the installable app's service worker, the page opens without a
    // connection; a punch made then is kept signed on the device (fila.js)
    // and sent, in order, when the connection returns.
    var fila = document.getElementById("fila");
    var filaLista = document.getElementById("fila-lista");
    var funcionario = fila ? fila.getAttribute("data-funcionario") : "";
    var offline = fila && window.PontoFila && window.indexedDB && window.crypto && crypto.subtle;
    // A page kept by the service worker carries an old key: a fresh one
    // for every page load.
    form.elements.chave.value = window.PontoFila ? PontoFila.aleatorio() : form.elements.chave.value;

    var mostrarFila = function () {
      if (!offline) { return Promise.resolve(); }
      return PontoFila.listar(funcionario).then(function (xs) {
        filaLista.textContent = "";
        xs.forEach(function (m) {
          var li = document.createElement("li");
          var hora = new Date(m.horario).toLocaleTimeString("pt-BR", { hour12: false });
          var texto = hora + " — " + m.estado;
          if (m.estado === PontoFila.ENVIADA && m.nsr) { texto += " (" + m.tipo + ", NSR " + m.nsr + ")"; }
          if (m.estado === PontoFila.RECUSADA) { texto += ": " + m.mensagem; }
          li.textContent = texto;
          li.className = m.estado === PontoFila.RECUSADA ? "recusada" : m.estado === PontoFila.ENVIADA ? "enviada" : "aguardando";
          li.setAttribute("data-estado", m.estado);
          li.setAttribute("data-id", m.id);
          filaLista.appendChild(li);
        });
        fila.hidden = xs.length === 0;
      });
    };
    var drenar = function () {
      if (!offline || !navigator.onLine) { return Promise.resolve(); }
      return PontoFila.enviar().catch(function () {}).then(mostrarFila);
    };
    var semConexao = function (id) {
      return position().then(function (pos) {
        return PontoFila.registrar(funcionario, pos.endereco, id);
      }).then(function (m) {
        if (!m) {
          showFailure("Sem conexão, e este aparelho ainda não foi preparado para marcar off-line: abra esta página uma vez com conexão.", true);
          return;
        }
        estado.textContent = "Sem conexão: marcação guardada neste aparelho às " + new Date(m.horario).toLocaleTimeString("pt-BR", { hour12: false }) + "; será enviada quando a conexão voltar.";
        if (navigator.serviceWorker && navigator.serviceWorker.ready) {
          navigator.serviceWorker.ready.then(function (reg) { if (reg.sync) { return reg.sync.register(PontoFila.TAG); } }).catch(function () {});
        }
        return mostrarFila();
      });
    };
    if (offline) {
      if ("serviceWorker" in navigator) { navigator.serviceWorker.register("/sw.js").catch(function () {}); }
      PontoFila.sessao(funcionario, csrf).then(function () {
        return navigator.onLine ? PontoFila.garantirChave(funcionario, csrf).catch(function () {}) : null;
      }).then(drenar).then(function () { fila.setAttribute("data-pronta", "true"); });
      window.addEventListener("online", drenar);
      // And again while punches wait: an "online" event may come before the
      // network answers, or the server may be down.
      setInterval(function () {
        if (navigator.onLine && filaLista.querySelector("[data-estado='" + PontoFila.AGUARDANDO + "']")) { drenar(); }
      }, 5000);
    }

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (busy) { return; }
      if (offline && !navigator.onLine) {
        busy = true;
        falha.hidden = true;
        semConexao().finally(function () { busy = false; });
        return;
      }
      send();
    });
    retry.addEventListener("click", function () {
      if (!busy) { send(); }
    });
  }

  // ---- the Today page refreshes itself ----------------------------------
  // Every data-atualizar seconds (and on an "atualizar" event) the page is
  // read again and the panel's contents swapped, unless the keyboard is
  // inside it (the swap would lose the focus) or the tab is hidden.
  var painel = document.getElementById("painel-hoje");
  if (painel && window.DOMParser) {
    var refresh = function () {
      if (document.hidden || painel.contains(document.activeElement)) { return; }
      fetch(window.location.href, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
        .then(function (r) {
          if (!r.ok || r.redirected) { throw new Error("status " + r.status); }
          return r.text();
        })
        .then(function (html) {
          var novo = new DOMParser().parseFromString(html, "text/html").getElementById("painel-hoje");
          if (!novo) { return; }
          painel.innerHTML = novo.innerHTML;
          painel.setAttribute("data-atualizado", String(Date.now()));
          var st = document.getElementById("painel-atualizado");
          if (st) { st.textContent = "Atualizado automaticamente."; }
        })
        .catch(function () {
          var st = document.getElementById("painel-atualizado");
          if (st) { st.textContent = "Sem conexão: mostrando a última situação lida."; }
        });
    };
    painel.addEventListener("atualizar", refresh);
    setInterval(refresh, (parseInt(painel.getAttribute("data-atualizar"), 10) || 60) * 1000);
  }

  // ---- confirmations ----------------------------------------------------
  document.querySelectorAll("form.confirmar").forEach(function (f) {
    f.addEventListener("submit", function (ev) {
      if (!window.confirm(f.getAttribute("data-confirmar"))) { ev.preventDefault(); }
    });
  });
})();

// ponto: the queue of off-line punches, shared by the punch page and the
// service worker (importScripts). Each punch is signed with the device's
// ECDSA P-256 key, created non-extractable by WebCrypto and kept in
// IndexedDB; the server registered its public half while on-line.
"use strict";

var PontoFila = (function () {
  var TAG = "ponto-fila";
  var AGUARDANDO = "aguardando conexão", ENVIADA = "enviada", RECUSADA = "recusada";

  function abrir() {
    return new Promise(function (ok, falha) {
      var req = indexedDB.open("ponto", 1);
      req.onupgradeneeded = function () {
        var db = req.result;
        db.createObjectStore("chaves", { keyPath: "funcionario" });
        db.createObjectStore("meta", { keyPath: "nome" });
        db.createObjectStore("fila", { keyPath: "id" });
      };
      req.onsuccess = function () { ok(req.result); };
      req.onerror = function () { falha(req.error); };
    });
  }

  function tx(store, modo, f) {
    return abrir().then(function (db) {
      return new Promise(function (ok, falha) {
        var t = db.transaction(store, modo), req = f(t.objectStore(store));
        t.oncomplete = function () { db.close(); ok(req ? req.result : undefined); };
        t.onerror = function () { db.close(); falha(t.error); };
      });
    });
  }
  function get(store, key) { return tx(store, "readonly", function (s) { return s.get(key); }); }
  function put(store, v) { return tx(store, "readwrite", function (s) { s.put(v); }); }
  function all(store) { return tx(store, "readonly", function (s) { return s.getAll(); }); }

  function b64(buf) {
    var bytes = new Uint8Array(buf), s = "";
    for (var i = 0; i < bytes.length; i++) { s += String.fromCharCode(bytes[i]); }
    return btoa(s);
  }

  function aleatorio() {
    if (self.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
  }

  // criarChave keeps a key for signer dono (an employee, or a kiosk as
  // "quiosque:<id>"), created once: registrar(spkiBase64) sends its public
  // half while on-line and resolves to the signer's id on the server.
  function criarChave(dono, registrar) {
    return get("chaves", dono).then(function (k) {
      if (k) { return k; }
      var par;
      return crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])
        .then(function (p) { par = p; return crypto.subtle.exportKey("spki", p.publicKey); })
        .then(function (spki) { return registrar(b64(spki)); })
        .then(function (id) {
          var k = { funcionario: dono, dispositivoId: id, chave: par.privateKey };
          return put("chaves", k).then(function () { return k; });
        });
    });
  }

  // garantirChave registers this device's key for employee funcionario
  // once, while on-line.
  function garantirChave(funcionario, csrf) {
    return criarChave(funcionario, function (spki) {
      return fetch("/ponto/dispositivos", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ nome: (self.navigator && navigator.platform) || "navegador", chavePublica: spki, horarioDispositivo: new Date().toISOString() })
      }).then(function (r) {
        if (!r.ok) { throw new Error("registro do dispositivo: " + r.status); }
        return r.json();
      }).then(function (d) { return d.id; });
    });
  }

  // guardar signs punch m with dono's key over partes(signer id) joined by
  // newlines and queues it: false when dono has no key yet.
  function guardar(dono, m, partes) {
    return get("chaves", dono).then(function (k) {
      if (!k) { return false; }
      var msg = new TextEncoder().encode(partes(k.dispositivoId).join("\n"));
      return crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, k.chave, msg)
        .then(function (sig) {
          m.assinatura = b64(sig);
          m.dispositivoId = k.dispositivoId;
          m.funcionario = dono;
          m.estado = AGUARDANDO;
          return put("fila", m);
        })
        .then(function () { return m; });
    });
  }

  // registrar keeps a punch made now, signed: false when this device has
  // no key yet (it never was on-line on this page).
  function registrar(funcionario, endereco, id) {
    var m = { id: id || aleatorio(), horario: new Date().toISOString(), endereco: endereco || "" };
    return guardar(funcionario, m, function (dispositivoId) {
      return ["ponto-offline-1", String(dispositivoId), m.id, m.horario, m.endereco];
    });
  }

  function listar(funcionario) {
    return all("fila").then(function (xs) {
      return xs.filter(function (m) { return m.funcionario === funcionario; })
        .sort(function (a, b) { return a.horario < b.horario ? -1 : a.horario > b.horario ? 1 : 0; });
    });
  }

  var enviando = null;

  // enviar sends the current employee's waiting punches, in punch order,
  // and records each outcome; a network or server failure keeps them
  // waiting (and rejects, so that Background Sync tries again).
  function enviar() {
    if (enviando) { return enviando; }
    enviando = get("meta", "sessao").then(function (s) {
      if (!s) { return; }
      return listar(s.funcionario).then(function (xs) {
        var pendentes = xs.filter(function (m) { return m.estado === AGUARDANDO; });
        if (!pendentes.length) { return; }
        var porDispositivo = pendentes.filter(function (m) { return m.dispositivoId === pendentes[0].dispositivoId; });
        return fetch("/ponto/offline", {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": s.csrf },
          body: JSON.stringify({
            dispositivoId: porDispositivo[0].dispositivoId, enviadoEm: new Date().toISOString(),
            marcacoes: porDispositivo.map(function (m) { return { id: m.id, horario: m.horario, endereco: m.endereco, assinatura: m.assinatura }; })
          })
        }).then(function (r) {
          return r.json().catch(function () { return {}; }).then(function (body) {
            if (r.ok) { return anotar(porDispositivo, body.resultados || []); }
            if (r.status === 403 || r.status === 400) {
              // The device or the batch cannot be accepted: kept, shown.
              return Promise.all(porDispositivo.map(function (m) {
                m.estado = RECUSADA;
                m.mensagem = (body.message || "marcação recusada") + " Procure o RH.";
                return put("fila", m);
              }));
            }
            throw new Error("envio: " + r.status);
          });
        });
      });
    }).finally(function () { enviando = null; });
    return enviando;
  }

  function anotar(enviadas, resultados) {
    var porId = {};
    resultados.forEach(function (r) { porId[r.id] = r; });
    return Promise.all(enviadas.map(function (m) {
      var r = porId[m.id];
      if (!r) { return null; }
      if (r.resultado === "recusada") {
        m.estado = RECUSADA;
        m.mensagem = (r.message || "marcação recusada") + " Procure o RH.";
      } else {
        m.estado = ENVIADA;
        m.nsr = r.registro && r.registro.nsr;
        m.tipo = r.registro && r.registro.tipo;
      }
      return put("fila", m);
    }));
  }

  function sessao(funcionario, csrf) { return put("meta", { nome: "sessao", funcionario: funcionario, csrf: csrf }); }

  return { TAG: TAG, AGUARDANDO: AGUARDANDO, ENVIADA: ENVIADA, RECUSADA: RECUSADA, garantirChave: garantirChave,
    registrar: registrar, listar: listar, enviar: enviar, sessao: sessao, aleatorio: aleatorio,
    criarChave: criarChave, guardar: guardar, anotar: anotar };
})();

// The shared kiosk (coletor compartilhado) in a real browser (run by
// tools/e2e TestWebQuiosque, which starts the stack and the SMTP server):
//
//   1. a company registers, with a schedule and an employee;
//   2. the employee logs in and sets his kiosk PIN;
//   3. the company registers a kiosk (its code shown once) and prints
//      the employee's badge;
//   4. a fresh browser becomes the kiosk with the code: the clock shows
//      seconds; the employee punches with CPF and PIN on the keypad (his
//      name and next tipo shown before he confirms, then the receipt's QR
//      code), a wrong PIN is refused, then he punches with the badge's
//      typed code; the AFD shows the kiosk's collector code;
//   5. off-line (context.setOffline), a badge punch is queued signed by
//      the kiosk's key ("aguardando conexão"); back on-line it is sent
//      and the AFD shows it with flag 1 and the kiosk's collector code.
//
// Every new page is checked with axe-core (no serious or critical
// violation) and photographed at 360 and 1280 px under PONTO_SHOTS.
import {
  capture, check, expectNoError, fillRegistration, fillSchedule, goto, log, need, newContext, run, submit, webtest,
} from "./browser.mjs";
import { cpfDigits as cpf, masked } from "./documents.mjs";

const { base } = webtest("quiosque", "TestWebQuiosque");
const codesURL = need("PONTO_CODES_URL");
// The kiosk's pages show field errors too.
const ERRORS = ".aviso.erro, .erro-campo";

const runID = Date.now().toString(36);
const company = { email: `rh-q-${runID}@portaria.test`, password: "Senha-forte-1" };
const employee = { nome: "Rita Quiosque", email: `rita-${runID}@portaria.test`, cpf: cpf(), pin: "4821" };

async function companySetUp(page) {
  await goto(page, "/empresa/cadastro");
  await fillRegistration(page, "Metalúrgica Portão", company);
  await submit(page);
  await expectNoError(page, "registration", ERRORS);
  await goto(page, "/empresa/escalas");
  await fillSchedule(page, "7");
  await submit(page);
  await expectNoError(page, "schedule", ERRORS);
  await goto(page, "/empresa/departamentos");
  await page.fill("#nome", "Produção");
  await page.fill("#segmentos", "Turno A");
  await submit(page);
  await expectNoError(page, "department", ERRORS);
  await goto(page, "/empresa/funcionarios/novo");
  await page.fill("#nome", employee.nome);
  await page.fill("#email", employee.email);
  await page.fill("#cpf", masked(employee.cpf));
  await page.fill("#dataNascimento", "15/08/1990");
  await page.fill("#cargo", "Operadora");
  await page.fill("#telefone", "11987654321");
  await page.fill("#password", "senhaForte123");
  await page.selectOption("#departamentoId", { label: "Produção" });
  await page.fill("#segmento", "1");
  await submit(page);
  await expectNoError(page, "employee", ERRORS);
}

async function employeeSetsPIN(page) {
  await goto(page, "/funcionario/entrar");
  await page.fill("#email", employee.email);
  await submit(page);
  await expectNoError(page, "code request", ERRORS);
  const resp = await fetch(`${codesURL}/?email=${encodeURIComponent(employee.email)}`);
  const code = await resp.text();
  check(resp.ok, "the login code arrived by e-mail: " + code);
  await page.fill("#codeVerify", code);
  await submit(page);
  check(new URL(page.url()).pathname === "/ponto", "the punch page opens: " + page.url());
  await goto(page, "/ponto/perfil");
  await Promise.all([page.waitForNavigation(), page.getByRole("link", { name: "PIN do quiosque" }).click()]);
  // A PIN like 1234 is refused next to its field.
  await page.fill("#pin", "1234");
  await page.fill("#confirmacao", "1234");
  await submit(page);
  check(await page.locator("#pin-erro").count() === 1, "a run like 1234 is refused next to the PIN");
  page.cspErrors = []; // the refused form's 400, expected
  await page.fill("#pin", employee.pin);
  await page.fill("#confirmacao", employee.pin);
  await submit(page);
  await expectNoError(page, "PIN", ERRORS);
  check((await page.locator(".aviso.ok").textContent()).includes("PIN salvo"), "the PIN is saved");
  await capture(page, "funcionario-pin");
}

// companyKiosk registers the kiosk and prints the badge: their codes.
async function companyKiosk(page) {
  await goto(page, "/empresa/quiosques");
  await page.fill("#nome", "Portaria");
  await page.selectOption("#dispositivo", "navegador");
  await submit(page, "main form.formulario[action='/empresa/quiosques'] button[type=submit]");
  await expectNoError(page, "kiosk", ERRORS);
  const codigo = (await page.locator("#codigo-quiosque").textContent()).trim();
  check(/^([A-Z2-7]{4}-){7}[A-Z2-7]{4}$/.test(codigo), "the kiosk's code is shown: " + codigo);
  check((await page.locator("img[alt^='QR code da credencial']").getAttribute("src")).startsWith("data:image/png"), "its QR code is shown");
  check(await page.locator("table tr", { hasText: "Portaria" }).getByText("nunca").count() === 1, "the kiosk is listed, never used");
  await capture(page, "empresa-quiosques");
  await page.selectOption("#cracha-funcionario", { label: employee.nome });
  await submit(page, "#form-cracha button[type=submit]");
  await expectNoError(page, "badge", ERRORS);
  const cracha = (await page.locator("#codigo-cracha").textContent()).trim();
  check(cracha.startsWith("PONTO-CRACHA-"), "the badge's code is printed: " + cracha);
  await capture(page, "empresa-cracha");
  return { codigo, cracha };
}

async function identified(page, tipo) {
  await page.waitForSelector("#q-confirmar:not([hidden])");
  check((await page.locator("#q-quem").textContent()) === employee.nome, "the kiosk shows his name");
  check(!(await page.locator("#q-identificar").isVisible()), "the identification forms are hidden while he confirms");
  check((await page.locator("#q-tipo").textContent()) === tipo, `the kiosk announces ${tipo}`);
}

async function confirm(page, tipo, name) {
  await page.click("#q-confirmar-botao");
  await page.waitForSelector("#q-recibo:not([hidden])");
  check((await page.locator("#q-recibo-tipo").textContent()) === tipo, "the receipt's tipo is " + tipo);
  check((await page.locator("#q-recibo-qr").getAttribute("src")).startsWith("data:image/png"), "the receipt's QR code is shown");
  check(!(await page.locator("#q-identificar").isVisible()), "the identification forms are hidden under the receipt");
  if (name) { await capture(page, name); }
  await page.click("#q-concluir");
  await page.waitForSelector("#q-identificar:not([hidden])");
}

async function kiosk(page, { codigo, cracha }) {
  await goto(page, "/quiosque");
  await capture(page, "quiosque-configurar");
  await page.fill("#credencial", "AAAA-BBBB");
  await page.click("#form-configurar button[type=submit]");
  await page.waitForFunction(() => document.getElementById("credencial-erro").textContent !== "");
  page.cspErrors = []; // the refused code's 401, expected
  await page.fill("#credencial", codigo.toLowerCase());
  await page.click("#form-configurar button[type=submit]");
  await page.waitForSelector("#q-principal:not([hidden])");
  await page.waitForFunction(() => /^\d{2}:\d{2}:\d{2}$/.test(document.getElementById("q-relogio").textContent));
  check((await page.locator("#q-nome").textContent()) === "Portaria", "the kiosk shows its name");
  const tz = await page.locator("#q-relogio").getAttribute("data-tz");
  check(tz === "America/Sao_Paulo", "the kiosk's clock runs in the company's zone: " + tz);
  const shown = await page.locator("#q-relogio").textContent();
  const now = new Intl.DateTimeFormat("pt-BR", { timeZone: tz, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(new Date());
  const secs = (hms) => hms.split(":").map(Number).reduce((a, x) => a * 60 + x, 0);
  const diff = Math.abs(secs(shown) - secs(now)) % 86400;
  check(Math.min(diff, 86400 - diff) <= 3, `the kiosk's clock (${shown}) shows the server's time in ${tz} (${now})`);
  await capture(page, "quiosque");

  // CPF and PIN on the keypad.
  await page.click("#q-cpf");
  for (const d of employee.cpf) { await page.click(`[data-tecla="${d}"]`); }
  await page.click('[data-tecla="proximo"]');
  for (const d of "9999") { await page.click(`[data-tecla="${d}"]`); }
  await page.click("#q-entrar-pin");
  await page.waitForSelector("#q-mensagem:not([hidden])");
  check((await page.locator("#q-mensagem").textContent()).includes("não reconhecidos"), "a wrong PIN is refused");
  page.cspErrors = []; // the refused PIN's 403, expected
  await page.fill("#q-pin", "");
  await page.click("#q-pin");
  for (const d of employee.pin) { await page.click(`[data-tecla="${d}"]`); }
  await page.click("#q-entrar-pin");
  await identified(page, "entrada");
  await capture(page, "quiosque-confirmar");
  await confirm(page, "entrada", "quiosque-recibo");

  // The badge, by its typed code (the camera's fallback).
  await page.fill("#q-cracha", cracha);
  await page.click("#q-entrar-cracha");
  await identified(page, "almoço");
  await confirm(page, "almoço");

  // Reloaded, the kiosk keeps its credential.
  await page.reload();
  await page.waitForSelector("#q-principal:not([hidden])");
}

// kioskOffline queues a badge punch while the kiosk is off-line, then
// sees it sent when the connection returns.
async function kioskOffline(ctx, page, { cracha }) {
  await page.waitForSelector("#quiosque[data-offline='pronto']");
  await ctx.setOffline(true);
  await page.fill("#q-cracha", cracha);
  await page.click("#q-entrar-cracha");
  await page.waitForSelector("#q-fila:not([hidden])");
  check((await page.locator("#q-fila").textContent()) === "1 marcação aguardando conexão", "the queued punch is shown waiting");
  check((await page.locator("#q-aviso").textContent()).includes("aguardando conexão"), "the kiosk says the punch waits for the connection");
  check(await page.locator("#q-identificar").isVisible(), "the kiosk is ready for the next employee");
  await capture(page, "quiosque-offline");
  await ctx.setOffline(false);
  await page.waitForSelector("#q-fila", { state: "hidden", timeout: 30000 });
  check(page.cspErrors.length === 0, "no error while sending the queue: " + page.cspErrors.join(" | "));
}

async function afdShowsTheKiosk(page) {
  const day = (ms) => new Date(Date.now() + ms).toISOString().slice(0, 10);
  const resp = await page.request.get(`${base}/empresa/afd.txt?inicio=${day(-86400000)}&fim=${day(0)}`);
  check(resp.ok(), "the AFD downloads: " + resp.status());
  const punches = (await resp.text()).split("\r\n").filter((l) => l.length >= 73 && l[9] === "7");
  check(punches.length === 3, "the AFD has the three punches: " + punches.length);
  punches.forEach((l, i) => {
    const flag = i < 2 ? "0" : "1"; // the third was made off-line
    check(l.slice(70, 72) === "02" && l[72] === flag, `kiosk punch ${i + 1} carries its collector code 02 and flag ${flag}: ` + l.slice(0, 80));
  });
  await goto(page, "/empresa/quiosques");
  check(await page.locator("table tr", { hasText: "Portaria" }).getByText("nunca").count() === 0, "the kiosk's last use is shown");
}

run(async (browser) => {
  const co = await newContext(browser, { width: 1280 });
  await companySetUp(co.page);
  const emp = await newContext(browser, { width: 360 });
  await employeeSetsPIN(emp.page);
  const codes = await companyKiosk(co.page);
  const k = await newContext(browser, { width: 1280 });
  await kiosk(k.page, codes);
  await kioskOffline(k.ctx, k.page, codes);
  await afdShowsTheKiosk(co.page);
});

// A workday through ponto's web client in a real browser (run by
// tools/e2e TestWebWorkday, which starts the stack and the SMTP server):
//
//   1. a company registers and creates a schedule, a department and an
//      employee (and visits its other pages);
//   2. the employee logs in with the e-mailed code, sees the clock, and
//      punches four times (one punch survives a network failure and is
//      retried with the same Idempotency-Key without a second punch);
//   3. he downloads a receipt, asks for an adjustment, uploads a photo;
//   4. the company approves the adjustment and sees it in the report;
//   5. and records, documents and cancels a leave the employee sees.
//
// Every main page is checked with axe-core (no serious or critical
// violation) and photographed at 360 and 1280 px under PONTO_SHOTS.
// Debian's chromium is started by browser.mjs with the project's fixed
// flags and a fresh profile.
import fs from "node:fs";
import {
  POSITION, capture, check, expectNoError, fillRegistration, fillSchedule, goto, log, navigate, need, newContext,
  run, submit, webtest,
} from "./browser.mjs";
import { cpfDigits, digits, masked } from "./documents.mjs";

webtest("workday", "TestWebWorkday");
const codesURL = need("PONTO_CODES_URL");
const photo = need("PONTO_PHOTO");

// ---- valid Brazilian documents (random, so every run is new) ----------

// A CNO with its check digit (the CEI's: weights 7,4,1,8,5,2,1,6,3,7,4;
// the sum's last two digits added; what their units lack to make ten).
function cno() {
  const d = digits(11);
  const t = d.reduce((s, x, i) => s + x * [7, 4, 1, 8, 5, 2, 1, 6, 3, 7, 4][i], 0) % 100;
  return d.join("") + String((10 - ((Math.floor(t / 10) + (t % 10)) % 10)) % 10);
}

function cpf() { return masked(cpfDigits()); }

// ---- the workday -------------------------------------------------------

const runID = Date.now().toString(36);
const company = { email: `rh-${runID}@padaria.test`, password: "Senha-forte-1" };
// Maria works in Manaus: her own time zone, not the company's.
const employee = { nome: "Maria Souza", email: `maria-${runID}@padaria.test`, cpf: cpf(), fuso: "America/Manaus" };
// A second employee whose phone refuses to give its position.
const semPosicao = { nome: "João Lima", email: `joao-${runID}@padaria.test`, cpf: cpf() };

async function companySetUp(page) {
  await goto(page, "/empresa/cadastro");
  await capture(page, "empresa-cadastro");
  await fillRegistration(page, "Padaria Pão Quente", company);
  check(await page.locator("#fusoHorario").inputValue() === "America/Sao_Paulo", "registration offers Brasília's time by default");
  await submit(page);
  await expectNoError(page, "registration");
  check(new URL(page.url()).pathname === "/empresa", "after registering, the console opens: " + page.url());
  await capture(page, "empresa-painel");

  await goto(page, "/empresa/configuracoes");
  check(await page.locator("#fusoHorario").inputValue() === "America/Sao_Paulo", "the company's time zone is the one registered");
  await page.selectOption("#fusoHorario", "America/Recife");
  await submit(page);
  await expectNoError(page, "time zone change");
  check(await page.locator("#fusoHorario").inputValue() === "America/Recife", "the company's new time zone is saved");
  await capture(page, "empresa-configuracoes");

  // A bad schedule first: the API's message appears next to the field.
  await goto(page, "/empresa/escalas");
  await fillSchedule(page, "9");
  await submit(page);
  check(await page.locator("#dias-erro").count() === 1, "a bad day count is shown next to its field");
  page.cspErrors = []; // the refused form's 400, expected
  await page.fill("#dias", "7");
  await submit(page);
  await expectNoError(page, "schedule");
  check(await page.locator("table").getByText("Comercial", { exact: true }).count() === 1, "the schedule is listed");
  await capture(page, "empresa-escalas");

  await goto(page, "/empresa/departamentos");
  await page.fill("#nome", "Vendas");
  await page.fill("#segmentos", "Equipe A\nEquipe B");
  await submit(page);
  await expectNoError(page, "department");
  check(await page.locator("table").getByText("Vendas", { exact: true }).count() === 1, "the department is listed");
  await capture(page, "empresa-departamentos");

  await goto(page, "/empresa/locais");
  await page.fill("#nome", "Loja Centro");
  await page.fill("#endereco", "Rua Direita, 100 - São Paulo/SP");
  await page.fill("#latitude", String(POSITION.latitude));
  await page.fill("#longitude", String(POSITION.longitude));
  await submit(page);
  await expectNoError(page, "work place");
  await capture(page, "empresa-locais");

  // Establishments: the principal is listed, a building site (CNO) is
  // added, a bad number is refused next to its field, the principal
  // cannot be deactivated and the site can.
  await goto(page, "/empresa/estabelecimentos");
  check(await page.locator("table").getByText("(principal)").count() === 1, "the principal establishment is listed");
  await page.selectOption("#tipo", "cno");
  await page.fill("#numero", "123");
  await page.fill("#nome", "Obra Norte");
  await page.fill("#endereco", "Av. Norte, 500 - São Paulo/SP");
  await submit(page);
  check(await page.locator("#numero-erro").count() === 1, "a CNO of three digits is refused next to its field");
  page.cspErrors = []; // the refused form's 400, expected
  await page.fill("#numero", cno());
  await submit(page);
  await expectNoError(page, "establishment");
  check(await page.locator("table tr", { hasText: "Obra Norte" }).count() === 1, "the new establishment is listed");
  await submit(page, "table button:has-text('Obra Norte')");
  await expectNoError(page, "deactivate establishment");
  check(await page.locator("table tr", { hasText: "Obra Norte" }).getByText("Inativo").count() === 1, "the site is inactive");
  await capture(page, "empresa-estabelecimentos");

  await goto(page, "/empresa/feriados");
  await capture(page, "empresa-feriados");

  await createEmployee(page, semPosicao, false);
  await createEmployee(page, employee, true);
  // By department and segment.
  await goto(page, "/empresa/funcionarios?departamentoId=" + await departmentId(page) + "&segmento=1");
  check(await page.locator("table").getByText(employee.email).count() === 1, "the employee is listed in Vendas, segment 1");
  check(await page.locator("table").getByText(semPosicao.email).count() === 0, "segment 1 lists only its own employees");
  await capture(page, "empresa-funcionarios");
}

async function createEmployee(page, who, photograph) {
  await goto(page, "/empresa/funcionarios/novo");
  await page.fill("#nome", who.nome);
  await page.fill("#email", who.email);
  await page.fill("#cpf", who.cpf);
  await page.fill("#dataNascimento", "15/08/1990");
  await page.fill("#cargo", "Atendente");
  await page.fill("#telefone", "11987654321");
  await page.fill("#password", "senhaForte123");
  await page.selectOption("#departamentoId", { label: "Vendas" });
  await page.fill("#segmento", photograph ? "1" : "2");
  if (who.fuso) { await page.selectOption("#fusoHorario", who.fuso); }
  if (photograph) { await capture(page, "empresa-funcionario-novo"); }
  await submit(page);
  await expectNoError(page, "employee " + who.nome);
  check(await page.locator("table").getByText(who.email).count() === 1, who.nome + " is listed");
}

async function departmentId(page) {
  await goto(page, "/empresa/funcionarios");
  return page.locator("#departamentoId option", { hasText: "Vendas" }).getAttribute("value");
}

async function code(email) {
  const resp = await fetch(`${codesURL}/?email=${encodeURIComponent(email)}`);
  const text = await resp.text();
  check(resp.ok, "the login code arrived by e-mail: " + text);
  return text;
}

function seconds(hms) {
  const [h, m, s] = hms.split(":").map(Number);
  return h * 3600 + m * 60 + s;
}

async function employeeLogIn(page, who = employee) {
  await goto(page, "/funcionario/entrar");
  if (who === employee) { await capture(page, "funcionario-entrar"); }
  await page.fill("#email", who.email);
  await submit(page);
  await expectNoError(page, "code request");
  // A wrong code first: the API's message is shown, nothing else happens.
  await page.fill("#codeVerify", "000000");
  await submit(page);
  check(await page.locator(".aviso.erro").count() === 1, "a wrong code is refused with a message");
  page.cspErrors = []; // the refused login's 401, expected
  await page.fill("#codeVerify", await code(who.email));
  await submit(page);
  check(new URL(page.url()).pathname === "/ponto", "after the code, the punch page opens: " + page.url());
}

async function clockIsRight(page) {
  await page.waitForSelector("#relogio[data-sincronizado=true]");
  const shown = await page.locator("#relogio").textContent();
  check(/^\d{2}:\d{2}:\d{2}$/.test(shown), "the clock shows hh:mm:ss: " + shown);
  const tz = await page.locator("#relogio").getAttribute("data-tz");
  check(tz === employee.fuso, `the clock runs in the employee's own time zone (${tz})`);
  const now = new Intl.DateTimeFormat("pt-BR", { timeZone: tz, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).format(new Date());
  const diff = Math.abs(seconds(shown) - seconds(now)) % 86400;
  check(Math.min(diff, 86400 - diff) <= 3, `the clock (${shown}) shows the server's time in ${tz} (${now})`);
}

async function punch(page, tipo) {
  check((await page.locator("#proximo-tipo").textContent()) === tipo, `the page announces the next punch as ${tipo}`);
  await page.click("#botao-bater");
  await page.waitForFunction((t) => {
    const r = document.getElementById("recibo");
    return r && !r.hidden && document.getElementById("recibo-tipo").textContent === t;
  }, tipo);
  return receiptOnPage(page);
}

async function receiptOnPage(page) {
  const r = {
    tipo: await page.locator("#recibo-tipo").textContent(),
    nsr: await page.locator("#recibo-nsr").textContent(),
    hash: await page.locator("#recibo-hash").textContent(),
    hora: await page.locator("#recibo-hora").textContent(),
  };
  check(/^\d+$/.test(r.nsr), "the receipt shows the NSR: " + r.nsr);
  check(/^[0-9a-f]{64}$/.test(r.hash), "the receipt shows the SHA-256 hash: " + r.hash);
  check(/^\d{2}:\d{2}:\d{2}$/.test(r.hora), "the receipt shows the time: " + r.hora);
  return r;
}

// punchThroughNetworkFailure: the punch reaches the server but its answer
// is lost; the page says so, and the retry (same Idempotency-Key) shows the
// same punch instead of making a second one.
async function punchThroughNetworkFailure(page, tipo) {
  let first = null;
  await page.route("**/ponto/registrar", async (route) => {
    const resp = await route.fetch();
    first = await resp.json();
    await route.abort("connectionreset");
  });
  await page.click("#botao-bater");
  await page.waitForSelector("#falha-bater:not([hidden])");
  check(first && first.registro.tipo === tipo, "the lost answer was the " + tipo + " punch");
  await page.unroute("**/ponto/registrar");
  page.cspErrors = []; // the reset connection, on purpose
  await page.click("#tentar-de-novo");
  await page.waitForFunction((t) => {
    const r = document.getElementById("recibo");
    return r && !r.hidden && document.getElementById("recibo-tipo").textContent === t;
  }, tipo);
  const r = await receiptOnPage(page);
  check(r.nsr === first.registro.nsr, `the retry shows the same punch (NSR ${r.nsr}, first ${first.registro.nsr})`);
  return r;
}

async function employeeDay(page) {
  await employeeLogIn(page);
  await clockIsRight(page);
  check(await page.locator("#g-semana-h").count() === 1 && await page.locator("svg[aria-labelledby='g-semana-t g-semana-d']").count() === 1,
    "the punch page shows the employee's week as a chart");
  check(/^-?\d+h\d{2}$/.test((await page.locator("#saldo-mes").textContent()).trim()), "the punch page shows the month's balance");
  await capture(page, "funcionario-ponto");

  const receipts = [];
  receipts.push(await punch(page, "entrada"));
  receipts.push(await punchThroughNetworkFailure(page, "almoço"));
  receipts.push(await punch(page, "retorno almoço"));
  receipts.push(await punch(page, "saída"));
  const nsrs = receipts.map((r) => Number(r.nsr));
  check(new Set(nsrs).size === 4 && nsrs.every((n, i) => i === 0 || n > nsrs[i - 1]), "four punches with increasing NSRs: " + nsrs);
  check(await page.locator("#hoje li").count() === 4, "today's list shows the four punches");
  await capture(page, "funcionario-recibo");

  // The receipt's PDF, through the web client.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#recibo-pdf")]);
  const pdf = fs.readFileSync(await download.path());
  check(pdf.subarray(0, 5).toString() === "%PDF-", "the receipt downloads as a PDF");
  log("receipt PDF", pdf.length, "bytes");

  // After a reload the day's punches come from the API, and the next is entrada.
  await goto(page, "/ponto");
  check(await page.locator("#hoje li").count() === 4, "today's punches after a reload");
  check((await page.locator("#proximo-tipo").textContent()) === "entrada", "after saída the next punch is entrada");

  await goto(page, "/ponto/registros");
  check(await page.locator("tbody tr").count() === 4, "the month lists the four punches");
  await capture(page, "funcionario-registros");
  const entrada = page.locator("tbody tr", { hasText: "entrada" }).first();
  const hora = (await entrada.locator("td").nth(1).textContent()).trim().slice(0, 5);
  await navigate(page, entrada.getByRole("link", { name: /Solicitar ajuste/ }));
  await capture(page, "funcionario-ajuste");
  await page.fill("#hora", hora);
  await page.fill("#motivo", "Esqueci de bater o ponto na chegada");
  await submit(page);
  await expectNoError(page, "adjustment request");
  check(await page.locator("tbody").getByText("ajuste solicitado").count() === 1, "the punch shows its pending adjustment");

  // A forgotten punch: yesterday's exit, asked for inclusion.
  await navigate(page, page.locator("#esqueci"));
  await page.fill("#data", daysBefore(localDate(employee.fuso), 1));
  await page.fill("#hora", "18:00");
  await page.fill("#motivo", "Esqueci de registrar a saída");
  await capture(page, "funcionario-esquecida");
  await submit(page);
  await expectNoError(page, "inclusion request");
  check(await page.locator(".aviso.ok").getByText("Pedido de inclusão enviado").count() === 1, "the inclusion request is confirmed");

  await goto(page, "/ponto/perfil");
  await page.setInputFiles("#foto", photo);
  await submit(page);
  await expectNoError(page, "photo upload");
  check(await page.locator("img.foto").count() === 1, "the profile shows the new photo");
  const img = await page.locator("img.foto").evaluate((el) => el.complete && el.naturalWidth > 0);
  check(img, "the photo loads through the web client");
  await capture(page, "funcionario-perfil");

  await goto(page, "/ponto/espelho");
  check(await page.locator("table").count() === 1, "the timesheet shows a table");
  await capture(page, "funcionario-espelho");
}

// positionDenied: the browser refuses the position. The employee is told
// so, and either the punch is made without it or the page says why it was
// not and what to do: never a silent failure.
async function positionDenied(page) {
  await employeeLogIn(page, semPosicao);
  await page.click("#botao-bater");
  await page.waitForFunction(() => {
    const r = document.getElementById("recibo");
    return (r && !r.hidden) || !document.getElementById("falha-bater").hidden;
  });
  const estado = await page.locator("#estado-bater").textContent();
  const falha = await page.locator("#falha-bater").isVisible() ? await page.locator("#falha-texto").textContent() : "";
  check(/localização/.test(estado + falha), `the employee is told about the position: "${estado}" "${falha}"`);
  log("position denied:", (estado + " " + falha).trim());
  page.cspErrors = []; // a refused punch's 400, when the API wants a position
  await capture(page, "funcionario-sem-localizacao");
}

async function companyApproves(page) {
  await goto(page, "/empresa/ajustes");
  const row = page.locator("#ajustes tbody tr", { hasText: employee.nome });
  check(await row.count() === 1, "the pending adjustment is in the queue with the employee's name");
  await capture(page, "empresa-ajustes");
  await navigate(page, row.getByRole("button", { name: /Aprovar/ }));
  await expectNoError(page, "approval");
  check(await page.locator(".aviso.ok").getByText("Ajuste aprovado").count() === 1, "the approval is confirmed");
  const request = page.locator("#solicitacoes tbody tr", { hasText: employee.nome });
  check(await request.count() === 1 && await request.getByText("18:00").count() === 1, "the inclusion request is in the queue at 18:00");
  await navigate(page, request.getByRole("button", { name: /Aprovar/ }));
  await expectNoError(page, "inclusion approval");
  check(await page.locator(".aviso.ok").getByText("Inclusão aprovada").count() === 1, "the inclusion's approval is confirmed");

  await goto(page, "/empresa/relatorio?departamento=Vendas");
  const line = page.locator("tbody tr", { hasText: employee.nome }).filter({ hasText: "(ajustada)" });
  check(await line.count() === 1, "the report shows the adjusted punch");
  await capture(page, "empresa-relatorio");
  const [csv] = await Promise.all([page.waitForEvent("download"), page.click("text=Baixar CSV")]);
  const text = fs.readFileSync(await csv.path(), "utf8");
  check(text.includes(employee.nome) && text.includes("(ajustada)"), "the CSV has the employee and the adjusted punch");

  await goto(page, "/empresa/espelhos");
  await page.selectOption("#funcionario", { label: employee.nome });
  await submit(page, "main form.filtros button[type=submit]");
  check(await page.locator("table").count() === 1, "the company sees the employee's timesheet");
  await capture(page, "empresa-espelhos");

  await goto(page, "/empresa/afd");
  await capture(page, "empresa-afd");
  const [aej] = await Promise.all([page.waitForEvent("download"), page.click("#form-aej button[type=submit]")]);
  const aejText = fs.readFileSync(await aej.path(), "latin1");
  check(/^01\|/.test(aejText) && aejText.includes("\r\n05|"), "the AEJ downloads, with its header and the punches (type 05)");
  const [afd] = await Promise.all([page.waitForEvent("download"), page.click("#form-afd button[type=submit]")]);
  const afdText = fs.readFileSync(await afd.path(), "latin1");
  check(afdText.length > 0 && /^0{9}1/.test(afdText), "the AFD downloads, starting with its type-1 header");
  // Type 7: NSR, "7", the punch's date-time, CPF, the recording's
  // date-time, collector, on-line flag, hash. Maria's four punches came
  // from the browser: collector 02.
  const cpf12 = "0" + employee.cpf.replace(/\D/g, "");
  const browserPunches = afdText.split(/\r?\n/).filter((l) => new RegExp(`^\\d{9}7.{24}${cpf12}.{24}02\\d[0-9a-f]{64}$`).test(l));
  check(browserPunches.length === 4, `the AFD has Maria's four punches with collector 02 (found ${browserPunches.length})`);
}

// localDate is today in zone, YYYY-MM-DD.
function localDate(zone) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
}

// daysBefore is the date n days before date (both YYYY-MM-DD).
function daysBefore(date, n) {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d - n)).toISOString().slice(0, 10);
}

// treatDays: the company disregards one of today's punches and includes a
// forgotten one yesterday (Portaria 671 art. 82); the timesheet's day shows
// both, and the originals stay.
async function treatDays(page) {
  await goto(page, "/empresa/espelhos");
  const id = await page.locator("#funcionario option", { hasText: employee.nome }).getAttribute("value");
  const today = localDate(employee.fuso);
  await goto(page, `/empresa/tratamento?funcionario=${id}&data=${today}`);
  const row = page.locator("tbody tr", { hasText: "retorno almoço" });
  check(await row.count() === 1, "today's originals are listed for treatment");
  await row.locator("input[name=motivo]").fill("marcação feita por engano");
  await navigate(page, row.getByRole("button", { name: /Desconsiderar/ }));
  await expectNoError(page, "disregard");
  check(await page.getByText("marcação feita por engano").count() >= 1, "the disregarded punch shows with its reason");
  check(await page.locator("tbody tr", { hasText: "retorno almoço" }).count() === 1, "the original stays listed");
  await capture(page, "empresa-tratamento");
  // Reconsidered, it counts again.
  const again = page.locator("tbody tr", { hasText: "retorno almoço" });
  await again.locator("input[name=motivo]").fill("desconsiderada por engano");
  await navigate(page, again.getByRole("button", { name: /Reconsiderar/ }));
  await expectNoError(page, "reconsider");
  check(await page.locator(".aviso.ok").getByText("Marcação reconsiderada").count() === 1, "the reconsideration is confirmed");
  check(await page.locator("tbody tr", { hasText: "(desconsiderada)" }).count() === 0, "no punch of the day is disregarded any more");

  const [y, m, d] = today.split("-").map(Number);
  const yesterday = new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
  await goto(page, `/empresa/tratamento?funcionario=${id}&data=${yesterday}`);
  await page.fill("#hora", "12:00");
  await page.fill("#motivo", "esqueceu de registrar a saída");
  await submit(page, "#form-incluir button[type=submit]");
  await expectNoError(page, "inclusion");
  check(await page.locator("li", { hasText: "incluída" }).count() === 2, "the included punch and the approved request show on their day");

  // Two days ago, without punches: an abono granted then cancelled, and
  // an absence marked then undone. Each stays in the history.
  const before = daysBefore(today, 2);
  await goto(page, `/empresa/tratamento?funcionario=${id}&data=${before}`);
  await page.selectOption("#abono-tipo", "folga");
  await page.fill("#abono-motivo", "folga compensatória");
  await navigate(page, page.locator("#form-abono button[type=submit]"));
  await expectNoError(page, "abono");
  const abono = page.locator("#abonos tbody tr", { hasText: "folga compensatória" });
  check(await abono.count() === 1 && await abono.getByText("dia inteiro").count() === 1, "the whole-day abono is listed");
  await abono.locator("input[name=motivo]").fill("folga trocada");
  await navigate(page, abono.getByRole("button", { name: /Cancelar/ }));
  await expectNoError(page, "abono cancellation");
  check(await page.locator("#abonos tbody tr", { hasText: "cancelado: folga trocada" }).count() === 1, "the cancelled abono stays, with its reason");
  await navigate(page, page.getByRole("button", { name: "Registrar falta neste dia" }));
  await expectNoError(page, "absence");
  check(await page.locator(".aviso.ok").getByText("Falta registrada").count() === 1, "the absence is confirmed");
  await page.fill("#falta-motivo", "estava em treinamento externo");
  await navigate(page, page.locator("#form-desfazer-falta button[type=submit]"));
  await expectNoError(page, "undoing the absence");
  check(await page.locator(".aviso.ok").getByText("Falta desfeita").count() === 1, "the undone absence is confirmed");
  check(await page.getByRole("button", { name: "Registrar falta neste dia" }).count() === 1, "the day may be marked absent again");
  await capture(page, "empresa-tratamento-abono");
}

// closeAndAcknowledge: the company closes last month; the employee then
// acknowledges last month's timesheet, and is told he cannot for this
// month, which is still open.
async function closeAndAcknowledge(company, emp) {
  const [y, m] = localDate("America/Recife").split("-").map(Number);
  const prev = new Date(Date.UTC(y, m - 2, 1));
  const mes = prev.toISOString().slice(0, 7);
  const last = new Date(Date.UTC(y, m - 1, 0)).toISOString().slice(0, 10);
  await goto(company, "/empresa/fechamentos");
  await company.fill("#inicio", mes + "-01");
  await company.fill("#fim", last);
  await submit(company);
  await expectNoError(company, "closing");
  check(await company.locator("tbody tr", { hasText: "fechado" }).count() === 1, "the closed period is listed");
  await capture(company, "empresa-fechamentos");

  await goto(emp, "/ponto/espelho");
  await submit(emp);
  check(await emp.locator(".aviso.erro").count() === 1, "this month, not closed, cannot be acknowledged: the page says so");
  emp.cspErrors = []; // the refused acknowledgement's 409, expected
  await goto(emp, "/ponto/espelho?mes=" + mes);
  await submit(emp);
  await expectNoError(emp, "acknowledgement");
  check(await emp.locator(".aviso.ok").getByText("Ciência registrada").count() === 1, "last month's timesheet is acknowledged");

  // Reopened with a reason, the period is listed as such.
  const closed = company.locator("tbody tr", { hasText: "fechado" });
  await goto(company, "/empresa/fechamentos");
  await company.locator("tbody tr", { hasText: "fechado" }).locator("input[name=motivo]").fill("correção de atestado");
  await navigate(company, company.locator("tbody tr", { hasText: "fechado" }).getByRole("button", { name: /Reabrir/ }));
  await expectNoError(company, "reopening");
  check(await company.locator("tbody tr", { hasText: "reaberto: correção de atestado" }).count() === 1, "the reopened period shows its reason");
  check(await closed.count() === 0, "no period is closed any more");
}

// hourBank: the employee is told his company has no hour bank; the
// company turns it on (a 13-month period is refused next to its field),
// and the employee then reads a balance and its period.
async function hourBank(company, emp) {
  await goto(emp, "/ponto/banco-horas");
  check(await emp.locator("#banco-inativo").count() === 1, "without a policy the employee is told there is no hour bank");

  await goto(company, "/empresa/banco-horas");
  await company.check("#ativo");
  await company.fill("#periodoMeses", "13");
  await submit(company);
  check(await company.locator("#periodoMeses-erro").count() === 1, "a 13-month period is refused next to its field");
  company.cspErrors = []; // the refused policy's 400, expected
  await company.fill("#periodoMeses", "6");
  await submit(company);
  await expectNoError(company, "hour-bank policy");
  check(await company.locator(".aviso.ok").getByText("Alterações salvas").count() === 1, "the policy is saved");
  check(await company.locator("#ativo").isChecked(), "the saved policy shows the bank on");
  await capture(company, "empresa-banco-horas");

  await goto(emp, "/ponto/banco-horas");
  const saldo = (await emp.locator("#saldo-banco").textContent()).trim();
  check(/^-?\d+h\d{2}$/.test(saldo), `the employee reads his balance in hours and minutes (${saldo})`);
  check(await emp.getByText("Período de compensação de").count() === 1, "the page names the compensation period");
  await capture(emp, "funcionario-banco-horas");
}

// payrollExport: the company's payroll codes (a bad one refused next to
// its field, a four-digit one saved), the open month's CSV marked
// provisional, and Calima's three-digit field refusing the long code on
// the page, with the event named.
async function payrollExport(page) {
  await goto(page, "/empresa/folha");
  await capture(page, "empresa-folha");
  await page.fill("#extras50", "a b");
  await submit(page, "#form-folha-eventos button[type=submit]");
  check(await page.locator("#extras50-erro").count() === 1, "a bad payroll code is refused next to its field");
  page.cspErrors = []; // the refused mapping's 400, expected
  await page.fill("#extras50", "0150");
  await submit(page, "#form-folha-eventos button[type=submit]");
  await expectNoError(page, "payroll codes");
  check(await page.locator(".aviso.ok").getByText("Alterações salvas").count() === 1, "the payroll codes are saved");
  check(await page.inputValue("#extras50") === "0150", "the saved code shows in its field");

  const today = localDate("America/Recife");
  await page.fill("#folha-inicio", today.slice(0, 8) + "01");
  await page.fill("#folha-fim", today);
  const [csv] = await Promise.all([page.waitForEvent("download"), page.click("#form-folha-arquivo button[type=submit]")]);
  const lines = fs.readFileSync(await csv.path(), "utf8").split("\n");
  check(lines[0].startsWith("# PROVISÓRIO"), "the open month's export is marked provisional on its first line");
  check(lines.includes("cpf,nome,evento,codigo,minutos,horas,dias"), "the CSV has its header line");

  await page.selectOption("#folha-formato", "layout");
  await page.selectOption("#folha-layout", "calima");
  await submit(page, "#form-folha-arquivo button[type=submit]");
  const err = (await page.locator(".aviso.erro").textContent()) || "";
  check(err.includes("extras50") && err.includes("calima"), `Calima's code field refuses 0150, naming the event (${err.trim()})`);
  page.cspErrors = []; // the refused export's 400, expected
}

// leaves: the company records Maria's vacation (an end before its start
// is refused next to its field), attaches its document, sees it in the
// month's calendar; Maria sees it on her page; the company cancels it.
async function leaves(company, emp) {
  const today = localDate("America/Recife");
  const inicio = daysBefore(today, -20), fim = daysBefore(today, -29);
  await goto(company, "/empresa/afastamentos");
  await capture(company, "empresa-afastamentos-mes");
  await company.selectOption("#funcionario", { label: employee.nome });
  await submit(company, "form.filtros button[type=submit]");
  await company.selectOption("#tipo", "ferias");
  await company.fill("#inicio", fim);
  await company.fill("#fim", inicio);
  await company.fill("#motivo", "férias de verão");
  await submit(company);
  check(await company.locator("#fim-erro").count() === 1, "an end before the start is refused next to its field");
  company.cspErrors = []; // the refused leave's 400, expected
  await company.fill("#inicio", inicio);
  await company.fill("#fim", fim);
  await submit(company);
  await expectNoError(company, "leave");
  const row = company.locator("tbody tr", { hasText: "férias de verão" });
  check(await row.count() === 1 && await row.getByText("Férias", { exact: true }).count() === 1, "the vacation is listed");
  await row.locator("input[type=file]").setInputFiles({ name: "aviso.pdf", mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n") });
  await navigate(company, row.getByRole("button", { name: /Anexar/ }));
  await expectNoError(company, "leave document");
  check(await company.locator(".aviso.ok").getByText("Documento anexado").count() === 1, "the document is attached");
  check(await row.getByRole("link", { name: /Baixar/ }).count() === 1, "the document may be downloaded");
  await capture(company, "empresa-afastamentos");

  await goto(emp, "/ponto/afastamentos");
  check(await emp.locator("tbody tr", { hasText: "Férias" }).count() === 1, "Maria sees her vacation");
  await capture(emp, "funcionario-afastamentos");

  await row.locator("input[name=motivo]").fill("férias adiadas");
  await navigate(company, row.getByRole("button", { name: /Cancelar/ }));
  await expectNoError(company, "leave cancellation");
  check(await company.locator("tbody tr", { hasText: "cancelado: férias adiadas" }).count() === 1, "the cancelled leave stays, with its reason");
}

// companyToday: the console's first page lists Maria under her situation
// with a link to her day, filters by department from the keyboard,
// refreshes its panel in place, and works without JavaScript; the
// month's charts open their data tables from the keyboard.
async function companyToday(page, browser) {
  await goto(page, "/empresa/");
  const maria = page.locator("#painel-hoje .pessoas a", { hasText: employee.nome });
  check(await maria.count() === 1, "the Today page lists Maria under her situation");
  check(/\/empresa\/tratamento\?funcionario=\d+&data=\d{4}-\d{2}-\d{2}$/.test(await maria.getAttribute("href")),
    "Maria's name links to her day");
  check(await page.locator(".contagens li").count() === 8, "the page counts the eight situations");
  await capture(page, "empresa-hoje");

  // The keyboard: pick the department, Tab to the button, Enter.
  await page.focus("#departamento");
  await page.selectOption("#departamento", "Vendas");
  await page.keyboard.press("Tab");
  check(await page.evaluate(() => document.activeElement.textContent.trim()) === "Filtrar", "Tab leads to the filter's button");
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.keyboard.press("Enter")]);
  check(new URL(page.url()).searchParams.get("departamento") === "Vendas", "the filter is the page's address");
  check(await maria.count() === 1, "Maria is in Vendas");

  // The establishment beside it: Maria works at the principal one, none
  // at the building site; the choice stays selected.
  const option = (text) => page.locator("#estabelecimento option", { hasText: text }).getAttribute("value");
  await page.selectOption("#estabelecimento", await option("(principal)"));
  await submit(page, "form.filtros button[type=submit]");
  await expectNoError(page, "establishment filter");
  check(/^\d+$/.test(new URL(page.url()).searchParams.get("estabelecimento")), "the establishment is in the page's address");
  check(await maria.count() === 1, "Maria works at the principal establishment");
  await page.selectOption("#estabelecimento", await option("Obra Norte"));
  await submit(page, "form.filtros button[type=submit]");
  await expectNoError(page, "site filter");
  check(await page.locator("#estabelecimento option[selected]").textContent() === "Obra Norte (inativo)", "the site stays selected");
  check(await maria.count() === 0, "nobody works at the building site");
  await page.selectOption("#estabelecimento", "");
  await submit(page, "form.filtros button[type=submit]");

  // The panel reads the page again in place.
  await page.evaluate(() => document.getElementById("painel-hoje").dispatchEvent(new Event("atualizar")));
  await page.waitForSelector("#painel-hoje[data-atualizado]", { timeout: 10000 });
  check(await page.locator("#painel-atualizado").textContent() === "Atualizado automaticamente.", "the refresh is announced");
  check(await maria.count() === 1, "after the refresh Maria is still listed");

  const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState(),
    viewport: { width: 360, height: 800 }, locale: "pt-BR" });
  const nojs = await plain.newPage();
  await goto(nojs, "/empresa/?departamento=Vendas");
  check(await nojs.locator("#painel-hoje .pessoas a", { hasText: employee.nome }).count() === 1, "without JavaScript the page shows the day");
  await plain.close();

  await goto(page, "/empresa/graficos");
  check(await page.locator("svg[role=img]").count() === 5, "the month has five charts");
  const vendas = page.locator("#tabela-horas tbody tr", { hasText: "Vendas" });
  check(!(await vendas.isVisible()), "the data tables start closed");
  await page.focus("section[aria-labelledby=g-horas-h] summary");
  await page.keyboard.press("Enter");
  check(await vendas.isVisible(), "Enter on the toggle shows the data table");
  await capture(page, "empresa-graficos");

  // The company's switch of the reminders: off, then on again.
  await goto(page, "/empresa/lembretes");
  await navigate(page, page.getByRole("button", { name: "Desligar os lembretes" }));
  await expectNoError(page, "reminders off");
  check((await page.locator("#estado-lembretes").textContent()).includes("desligados"), "the company's reminders are off");
  await capture(page, "empresa-lembretes");
  await navigate(page, page.getByRole("button", { name: "Ligar os lembretes" }));
  check((await page.locator("#estado-lembretes").textContent()).includes("ligados:"), "the company's reminders are on again");
}

// employeeReminders: the reminders' opt-out link leads to a page where
// the employee turns them off, and on again.
async function employeeReminders(page) {
  await goto(page, "/ponto/lembretes");
  check((await page.locator("#estado-lembretes").textContent()).includes("Você recebe"), "reminders start on");
  await navigate(page, page.getByRole("button", { name: "Não quero mais receber lembretes" }));
  await expectNoError(page, "opt-out");
  check((await page.locator("#estado-lembretes").textContent()).includes("não recebe"), "the opt-out is saved");
  await capture(page, "funcionario-lembretes");
  await navigate(page, page.getByRole("button", { name: "Voltar a receber lembretes" }));
  check((await page.locator("#estado-lembretes").textContent()).includes("Você recebe"), "reminders are on again");
}

run(async (browser) => {
  const anon = await newContext(browser, { width: 360 });
  await goto(anon.page, "/");
  check(new URL(anon.page.url()).pathname === "/entrar", "an anonymous visitor is sent to /entrar");
  await capture(anon.page, "entrar");
  await goto(anon.page, "/empresa/entrar");
  await capture(anon.page, "empresa-entrar");
  await anon.ctx.close();

  const company_ = await newContext(browser, { width: 1280 });
  await companySetUp(company_.page);
  const emp = await newContext(browser, { width: 360, geolocation: true });
  await employeeDay(emp.page);
  const denied = await newContext(browser, { width: 360 });
  await positionDenied(denied.page);
  await companyApproves(company_.page);
  await treatDays(company_.page);
  await closeAndAcknowledge(company_.page, emp.page);
  await hourBank(company_.page, emp.page);
  await payrollExport(company_.page);
  await leaves(company_.page, emp.page);
  await companyToday(company_.page, browser);
  await employeeReminders(emp.page);
});

package io.agentfuse.gateway.dashboard;

import io.agentfuse.core.breaker.CircuitState;
import io.agentfuse.gateway.testing.GatewayHarness;
import io.agentfuse.mock.MockStep;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard at {@code GET /} in a real headless Chromium (see {@link HeadlessChromium}), against
 * a real gateway and mock provider on loopback: it loads cleanly, its buttons operate breakers with
 * the admin token, and its charts draw the traffic of the last seconds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DashboardBrowserTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    /**
     * The harness's models, plus one whose name has a slash, one without fallbacks, and one whose
     * provider will fail behind a working fallback.
     */
    private static final String CONFIG = GatewayHarness.CONFIG + """
              meta/llama-3: { provider: openai, upstreamModel: llama-3-upstream }
              solo: { provider: openai, upstreamModel: solo-upstream }
              flaky: { provider: openai, upstreamModel: flaky-upstream, fallbacks: [steady] }
              steady: { provider: openai, upstreamModel: steady-upstream }
            """;

    private GatewayHarness harness;
    private ChromeDriverService service;
    private WebDriver browser;

    @BeforeAll
    void startGatewayAndBrowser() {
        HeadlessChromium.Binaries chromium = HeadlessChromium.binaries();
        harness = GatewayHarness.start(CONFIG);
        service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromium.driver().toFile())
                .usingAnyFreePort()
                .withEnvironment(chromium.environment())
                .withSilent(true)
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.browser().toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-extensions", "--window-size=1280,1000",
                "--user-data-dir=" + HeadlessChromium.newProfile());
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    void stop() {
        try {
            if (browser != null) {
                browser.quit();
            }
        } finally {
            if (harness != null) {
                harness.close();
            }
        }
    }

    @BeforeEach
    void openDashboard() {
        browser.get(harness.gateway.baseUrl() + "/");
        await().until(page -> !page.findElements(rowSelector("model:claude-sonnet-4")).isEmpty());
        // Transitions are only listed from the moment the page's event stream is open.
        await().until(page -> "true".equals(page.findElement(By.id("log")).getDomAttribute("data-live")));
    }

    @AfterEach
    void noScriptErrors() {
        // Refused operations (401, 403) are logged by Chromium as failed loads; anything else is a defect.
        assertThat(consoleErrors()).filteredOn(entry -> !entry.getMessage().matches(".*status of 40[13].*")).isEmpty();
    }

    @Test
    void thePageLoadsWithoutConsoleErrorsAndListsEveryBreaker() {
        await().until(page -> page.findElement(By.id("status")).getText().contains("traffic updated"));

        assertThat(consoleErrors()).isEmpty();
        assertThat(browser.findElements(By.cssSelector("#breakers tr[data-breaker]")))
                .extracting(row -> row.getDomAttribute("data-breaker"))
                .contains("model:claude-sonnet-4", "model:claude-haiku-4", "model:gpt-4o-mini", "model:meta/llama-3");
        assertThat(browser.findElement(By.cssSelector("label[for=token]")).getText()).isEqualTo("Admin token");
    }

    @Test
    void aBreakerForcedOpenThroughItsButtonShowsInTheTableAndTheHistory() {
        String name = "model:meta/llama-3";
        typeToken(GatewayHarness.ADMIN_TOKEN);

        button(name, "open").click();

        await().until(page -> "FORCED_OPEN".equals(row(name).getDomAttribute("data-state")));
        await().until(page -> page.findElement(By.id("log")).getText().contains(name + ": CLOSED → FORCED_OPEN"));
        assertThat(harness.gateway.runtime().registry().find(name).orElseThrow().state()).isEqualTo(CircuitState.FORCED_OPEN);
        assertThat(row(name).getText()).contains("FORCED_OPEN");
        assertThat(browser.findElement(By.id("message")).getText()).isEqualTo(name + " is FORCED_OPEN");
        assertThat(script("return sessionStorage.getItem('agentfuse.adminToken')")).isEqualTo(GatewayHarness.ADMIN_TOKEN);
        assertThat(browser.getCurrentUrl()).doesNotContain(GatewayHarness.ADMIN_TOKEN);

        button(name, "reset").click();
        await().until(page -> "CLOSED".equals(row(name).getDomAttribute("data-state")));
    }

    @Test
    void aWrongTokenShowsTheForbiddenMessageAndChangesNothing() {
        typeToken("not-the-token");

        button("model:gpt-4o-mini", "disable").click();

        await().until(page -> page.findElement(By.id("message")).getText().startsWith("403"));
        assertThat(browser.findElement(By.id("message")).getText()).isEqualTo("403 forbidden: the admin token is not valid");
        assertThat(harness.breaker("gpt-4o-mini").state()).isEqualTo(CircuitState.CLOSED);
        assertThat(consoleErrors()).as("the browser's console is read (so a clean one means something)")
                .anySatisfy(entry -> assertThat(entry.getMessage()).contains("status of 403"));
    }

    @Test
    void noTokenShowsTheUnauthorizedMessage() {
        browser.findElement(By.id("forget-token")).click();

        button("model:claude-haiku-4", "open").click();

        await().until(page -> page.findElement(By.id("message")).getText().startsWith("401"));
        assertThat(browser.findElement(By.id("message")).getText()).contains("Authorization: Bearer");
        assertThat(harness.breaker("claude-haiku-4").state()).isEqualTo(CircuitState.CLOSED);
    }

    @Test
    void theChartsDrawTheRequestsErrorsAndLatencyOfTheLastSeconds() {
        for (int i = 0; i < 4; i++) {
            assertThat(harness.client.post("/v1/chat/completions", GatewayHarness.openAiRequest("solo", false)).status())
                    .isEqualTo(200);
        }
        harness.mock.scriptForModel("solo-upstream", MockStep.builder().status(500).times(2).build());
        for (int i = 0; i < 2; i++) {
            assertThat(harness.client.post("/v1/chat/completions", GatewayHarness.openAiRequest("solo", false)).status())
                    .isEqualTo(502);
        }

        await().until(page -> chartNumber("requests", "data-total") >= 6 && chartNumber("errors", "data-total") >= 2
                && chartNumber("latency", "data-max") > 0);
        for (String chart : List.of("requests", "errors", "latency")) {
            assertThat(lowestY(chart)).as("the %s line rises above the baseline", chart).isLessThan(100.0);
        }
        assertThat(browser.findElement(By.id("requests-summary")).getText()).contains("in the last minute");
    }

    @Test
    void aProviderFailingEveryCallBehindAWorkingFallbackShowsBehindTheAnswersWhileCallersGet200() {
        harness.mock.scriptForModel("flaky-upstream", MockStep.builder().status(500).times(50).build());

        for (int i = 0; i < 5; i++) {
            assertThat(harness.client.post("/v1/chat/completions", GatewayHarness.openAiRequest("flaky", false)).status())
                    .as("the fallback answers").isEqualTo(200);
        }

        // Three calls fail (the breaker then opens and flaky is skipped); every request falls back.
        await().until(page -> chartNumber("upstream", "data-failures") >= 3 && chartNumber("upstream", "data-fallbacks") >= 5);
        assertThat(lowestY("upstream")).as("the lines rise above the baseline").isLessThan(100.0);
        assertThat(browser.findElement(By.id("upstream-summary")).getText()).contains("failed calls").contains("fallbacks");
        harness.breaker("flaky").reset();
    }

    @Test
    void transitionsFromBeforeThePageOpenedAreListedWhenItLoads() {
        String name = "model:solo";
        assertThat(harness.client.post("/admin/breakers/" + name + "/open", new io.vertx.core.json.JsonObject(),
                java.util.Map.of("authorization", "Bearer " + GatewayHarness.ADMIN_TOKEN)).status()).isEqualTo(200);
        harness.breaker("solo").reset();

        browser.navigate().refresh();

        await().until(page -> "true".equals(page.findElement(By.id("log")).getDomAttribute("data-history")));
        await().until(page -> page.findElement(By.id("log")).getText().contains(name + ": CLOSED → FORCED_OPEN"));
        String log = browser.findElement(By.id("log")).getText();
        assertThat(log.indexOf(name + ": FORCED_OPEN → CLOSED")).as("newest first")
                .isLessThan(log.indexOf(name + ": CLOSED → FORCED_OPEN")).isNotNegative();
    }

    private WebDriverWait await() {
        return new WebDriverWait(browser, WAIT);
    }

    private void typeToken(String token) {
        browser.findElement(By.id("forget-token")).click();
        browser.findElement(By.id("token")).sendKeys(token);
    }

    private static By rowSelector(String breaker) {
        return By.cssSelector("#breakers tr[data-breaker='" + breaker + "']");
    }

    private WebElement row(String breaker) {
        return browser.findElement(rowSelector(breaker));
    }

    private WebElement button(String breaker, String action) {
        return browser.findElement(By.cssSelector("button[data-breaker='" + breaker + "'][data-action='" + action + "']"));
    }

    private double chartNumber(String chart, String attribute) {
        return Double.parseDouble(browser.findElement(By.id("chart-" + chart)).getDomAttribute(attribute));
    }

    /** The highest point of the chart's lines, as SVG y (100 is the baseline, 5 the top). */
    private double lowestY(String chart) {
        return browser.findElements(By.cssSelector("#chart-" + chart + " path.line")).stream()
                .map(path -> path.getDomAttribute("d"))
                .flatMap(d -> Arrays.stream(d.split("[ML]")))
                .map(String::trim).filter(point -> !point.isEmpty())
                .mapToDouble(point -> Double.parseDouble(point.split(" ")[1]))
                .min().orElse(100.0);
    }

    private Object script(String source) {
        return ((JavascriptExecutor) browser).executeScript(source);
    }

    private List<LogEntry> consoleErrors() {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(entry -> entry.getLevel().intValue() >= Level.SEVERE.intValue()).toList();
    }
}

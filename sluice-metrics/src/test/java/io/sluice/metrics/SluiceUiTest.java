package io.sluice.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.core.ManualClock;
import io.sluice.core.Sluice;
import io.sluice.core.StreamingQuery;
import io.sluice.core.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The web UI in a real headless Chromium (Debian's chromium and chromium-driver) through Selenium: what the page
 * shows against what the REST API answers for the same queries. {@code -Dsluice.ui.tests=skip} skips it; without
 * Chromium it is skipped, saying what is missing, except under the environment variable {@code CI=true}, where it
 * fails (.ci/run installs Chromium, so a skip there would hide a broken CI). {@code -Dsluice.ui.screenshot=update}
 * rewrites docs/images/ui.png.
 */
class SluiceUiTest {

    // Overridable to check the message when they are missing; Debian's paths otherwise.
    private static final String CHROMIUM = System.getProperty("sluice.ui.chromium", "/usr/bin/chromium");
    private static final String CHROMEDRIVER = System.getProperty("sluice.ui.chromedriver", "/usr/bin/chromedriver");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ChromeDriver driver;
    /** Why there is no browser here (Chromium or chromedriver missing), or null: set once by {@link #browser}. */
    private static String noBrowser;

    private final ManualClock clock = new ManualClock(1_000_000);
    private final Sluice sluice = Sluice.builder().clock(clock).build();
    private SluiceServer server;

    @BeforeAll
    static void browser() {
        Assumptions.assumeFalse("skip".equals(System.getProperty("sluice.ui.tests")),
                "sluice.ui.tests=skip: the browser tests of the web UI are skipped");
        noBrowser = missingChromium();
        if (noBrowser != null) {
            return;
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1900", "--no-first-run", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update");
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.PERFORMANCE, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
    }

    /**
     * The one check for the browser: null when Chromium and chromedriver are both executable; otherwise the reason
     * each test is skipped with, or a failure when the environment variable CI is "true": .ci/run installs both,
     * so a missing one there is a broken CI, which a skip would hide.
     */
    private static String missingChromium() {
        List<String> missing = new ArrayList<>();
        if (!new File(CHROMIUM).canExecute()) {
            missing.add("Chromium at " + CHROMIUM);
        }
        if (!new File(CHROMEDRIVER).canExecute()) {
            missing.add("chromedriver at " + CHROMEDRIVER);
        }
        if (missing.isEmpty()) {
            return null;
        }
        String what = "SluiceUiTest needs Debian's Chromium and chromedriver; no executable "
                + String.join(" nor ", missing) + " (apt-get install -y chromium chromium-driver; .ci/run installs them)";
        if ("true".equals(System.getenv("CI"))) {
            fail(what + ". CI=true: the browser tests must run on CI, so this fails instead of skipping");
        }
        return what + ": the browser tests of the web UI are skipped (CI=true makes this a failure)";
    }

    @BeforeEach
    void needsBrowser() {
        // Each test is aborted rather than the class in browser(): surefire reports a class aborted in @BeforeAll
        // as "Tests run: 0", without the reason; aborted tests show as skipped, with it.
        Assumptions.assumeTrue(noBrowser == null, () -> noBrowser);
    }

    @AfterAll
    static void quit() {
        if (driver != null) {
            driver.quit();
        }
    }

    @AfterEach
    void close() {
        if (driver != null) {
            // Stop the page's polling before its server goes, and forget its requests: each test checks its own.
            driver.get("about:blank");
            driver.manage().logs().get(LogType.PERFORMANCE);
        }
        if (server != null) {
            server.close();
        }
        sluice.close();
    }

    private String base() {
        return "http://127.0.0.1:" + server.port();
    }

    private String api(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base() + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    private WebDriverWait waiting() {
        return new WebDriverWait(driver, Duration.ofSeconds(30));
    }

    /** Numbers equal by value: the page's JSON.stringify writes 10.0 as 10. */
    private static boolean sameJson(JsonNode a, JsonNode b) {
        return a.equals((x, y) -> x.equals(y) || x.isNumber() && y.isNumber()
                && x.decimalValue().compareTo(y.decimalValue()) == 0 ? 0 : 1, b);
    }

    @Test
    void aRunningQueryShowsItsBatchesChartsProgressAndCheckpoint(@TempDir Path dir) throws Exception {
        server = SluiceUi.start(sluice, 0);
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 10)
                .option("numPartitions", 1).load()
                .writeStream().format("noop").queryName("ui_rate")
                .option("checkpointLocation", dir.resolve("chk").toString())
                .trigger(Trigger.processingTime(1000)).start();
        String id = q.id().toString();
        for (int batch = 0; batch < 3; batch++) {
            long b = batch;
            await().atMost(Duration.ofSeconds(20)).until(() -> q.lastProgress() != null
                    && q.lastProgress().batchId() == b && clock.isWaiting());
            if (batch < 2) {
                clock.advance(1000);
            }
        }
        // The listener runs on its own thread: wait until the API has the three batches.
        await().atMost(Duration.ofSeconds(20)).until(() -> JSON.readTree(api("/api/v1/queries/" + id))
                .get("lastBatchId").asLong(-1) == 2);
        JsonNode recent = JSON.readTree(api("/api/v1/queries/" + id + "/progress/recent"));
        JsonNode last = JSON.readTree(api("/api/v1/queries/" + id + "/progress/last"));
        assertThat(recent).hasSize(3);

        driver.get(base() + "/");
        WebDriverWait wait = waiting();
        wait.until(d -> d.findElements(By.cssSelector("#queries tbody tr[data-id='" + id + "']")).size() == 1);
        var row = driver.findElement(By.cssSelector("#queries tbody tr[data-id='" + id + "']"));
        assertThat(row.findElements(By.tagName("td")).stream().map(e -> e.getText()).toList().subList(0, 6))
                .containsExactly("ui_rate", id, "active", "3", "30", "2");

        wait.until(d -> id.equals(d.findElement(By.id("detail")).getAttribute("data-id"))
                && "3".equals(d.findElement(By.id("chart-rows")).getAttribute("data-points")));
        for (String chart : List.of("chart-rates", "chart-durations", "chart-rows", "chart-sources")) {
            assertThat(driver.findElement(By.id(chart)).getAttribute("data-points")).as(chart)
                    .isEqualTo(String.valueOf(recent.size()));
        }
        JavascriptExecutor js = driver;
        assertThat(js.executeScript("return window.sluiceUi.charts['chart-rows'].plot.data[1]"))
                .isEqualTo(List.of(10L, 10L, 10L));
        assertThat(js.executeScript("return window.sluiceUi.charts['chart-rows'].plot.data[0]"))
                .isEqualTo(List.of(0L, 1L, 2L));
        assertThat(sameJson(JSON.readTree(driver.findElement(By.id("progress")).getText()), last))
                .as(driver.findElement(By.id("progress")).getText()).isTrue();
        wait.until(d -> d.findElements(By.cssSelector("#checkpoint tbody tr")).size() == 3);
        assertThat(driver.findElements(By.cssSelector("#checkpoint tbody tr")).stream()
                .map(e -> e.getAttribute("data-batch")).toList()).containsExactly("0", "1", "2");
        assertThat(driver.findElement(By.id("error")).isDisplayed()).isFalse();
        // rate-micro-batch reports no source metrics: the chart says so rather than staying blank.
        assertThat(driver.findElement(By.id("sources-none")).isDisplayed()).isTrue();

        // Updates live: one more batch appears with no reload.
        clock.advance(1000);
        wait.until(d -> "4".equals(d.findElement(By.id("chart-rows")).getAttribute("data-points")));
        wait.until(d -> d.findElement(By.id("progress")).getText().contains("\"batchId\": 3"));

        if ("update".equals(System.getProperty("sluice.ui.screenshot"))) {
            Path png = Path.of(System.getProperty("user.dir")).resolveSibling("docs").resolve("images/ui.png");
            Files.createDirectories(png.getParent());
            Files.write(png, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        }
        assertEveryRequestWasTheServers();
    }

    @Test
    void aFailedQueryShowsItsError(@TempDir Path dir) throws Exception {
        server = SluiceUi.start(sluice, 0);
        StreamingQuery q = sluice.readStream().format("rate-micro-batch").option("rowsPerBatch", 3).load()
                .writeStream().queryName("ui_fails").option("checkpointLocation", dir.resolve("c").toString())
                .foreachBatch((batch, batchId) -> {
                    throw new IllegalStateException("the sink is down");
                }).start();
        String id = q.id().toString();
        await().atMost(Duration.ofSeconds(20)).until(() -> "failed".equals(
                JSON.readTree(api("/api/v1/queries/" + id)).get("state").asText()));
        String exception = JSON.readTree(api("/api/v1/queries/" + id)).get("exception").asText();
        assertThat(exception).contains("the sink is down");

        driver.get(base() + "/#" + id);
        WebDriverWait wait = waiting();
        wait.until(d -> d.findElement(By.id("error")).isDisplayed());
        assertThat(driver.findElement(By.id("error")).getText()).startsWith(
                "java.lang.IllegalStateException: the sink is down");
        // getText() folds the stack trace's tabs: the element's text itself is the API's, character for character.
        assertThat(((JavascriptExecutor) driver).executeScript(
                "return document.getElementById('error').textContent")).isEqualTo(exception);
        assertThat(driver.findElement(By.cssSelector("#queries tbody tr[data-id='" + id + "'] td.state-failed"))
                .getText()).isEqualTo("failed");
        assertThat(driver.findElement(By.id("title")).getText()).isEqualTo("ui_fails — failed");
        assertEveryRequestWasTheServers();
    }

    @Test
    void eachSourcesLagAndBacklogAreCharted() throws Exception {
        server = SluiceUi.start(sluice, 0);
        java.util.UUID id = java.util.UUID.fromString("00000000-0000-0000-0000-0000000000aa");
        java.util.UUID runId = java.util.UUID.fromString("00000000-0000-0000-0000-0000000000bb");
        QueryTracker tracker = server.metrics().tracker();
        tracker.onQueryStarted(new io.sluice.core.StreamingQueryListener.QueryStartedEvent(id, runId, "lag",
                "1970-01-01T00:00:05Z"));
        for (long b = 0; b < 2; b++) {
            tracker.onQueryProgress(new io.sluice.core.StreamingQueryListener.QueryProgressEvent(
                    new io.sluice.core.StreamingQueryProgress(id, runId, "lag", "1970-01-01T00:00:1" + b + "Z", b,
                            40, java.util.Map.of("addBatch", 30L, "triggerExecution", 40L), java.util.Map.of(),
                            List.of(new io.sluice.core.SourceProgress("KafkaV2[Subscribe[events]]", null, "{}", "{}",
                                            7, 3.5, 70.0, java.util.Map.of("maxOffsetsBehindLatest",
                                            String.valueOf(12 - b))),
                                    new io.sluice.core.SourceProgress("FileStreamSource[file:/in]", null, "{}", null,
                                            2, 1.0, 20.0, java.util.Map.of("numFilesOutstanding",
                                            String.valueOf(3 + b)))),
                            new io.sluice.core.SinkProgress("NoopSink", 9, java.util.Map.of()))));
        }
        driver.get(base() + "/#" + id);
        waiting().until(d -> "2".equals(d.findElement(By.id("chart-sources")).getAttribute("data-points")));
        JavascriptExecutor js = driver;
        assertThat(js.executeScript("return window.sluiceUi.charts['chart-sources'].plot.series.map(s => s.label)"))
                .isEqualTo(List.of("batch", "source 0 maxOffsetsBehindLatest", "source 1 numFilesOutstanding"));
        assertThat(js.executeScript("return window.sluiceUi.charts['chart-sources'].plot.data.slice(1)"))
                .isEqualTo(List.of(List.of(12L, 11L), List.of(3L, 4L)));
        assertThat(js.executeScript("return window.sluiceUi.charts['chart-durations'].plot.series.map(s => s.label)"))
                .isEqualTo(List.of("batch", "addBatch", "triggerExecution"));
        assertThat(driver.findElement(By.id("sources-none")).isDisplayed()).isFalse();
        assertEveryRequestWasTheServers();
    }

    /** Every request the page made (Chromium's performance log) went to this server: nothing loads from outside. */
    private void assertEveryRequestWasTheServers() throws Exception {
        List<String> urls = new ArrayList<>();
        for (LogEntry e : driver.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode m = JSON.readTree(e.getMessage()).get("message");
            if ("Network.requestWillBeSent".equals(m.get("method").asText())) {
                urls.add(m.get("params").get("request").get("url").asText());
            }
        }
        assertThat(urls).isNotEmpty();
        assertThat(urls).allSatisfy(u -> assertThat(u).startsWith(base() + "/"));
        assertThat(urls).contains(base() + "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js", base() + "/ui/app.js");
    }
}

package io.sluice.cli;

import io.sluice.api.OptionDef;
import io.sluice.api.OptionSet;
import io.sluice.api.sink.SinkProvider;
import io.sluice.api.source.SourceProvider;
import io.sluice.core.DataStreamWriter;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The docs' option tables come from the declarations: for every built-in source and sink (this module sees them
 * all), its page's option tables (tables whose first column is {@code option}) list every declared option with its
 * default (when the table has a {@code default} column), and no option that is not declared (a sink's page may also
 * list the engine's writer options; {@code kafka.<setting>} rows name a declared prefix).
 */
class OptionDocsTest {
    private static final Path DOCS = Path.of("..", "docs");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    /** A parenthesized remark in an option cell, other than an alias: its code spans are not option names. */
    private static final Pattern REMARK = Pattern.compile("\\((?!alias)[^)]*\\)");
    private static final Pattern HEADING = Pattern.compile("^(#+)\\s+(.*)$");

    /** The page and sections (null: the whole page) of each built-in source. */
    private static final Map<String, List<String>> SOURCE_PAGES = pages(
            "rate", List.of("sources/rate.md"),
            "rate-micro-batch", List.of("sources/rate-micro-batch.md"),
            "socket", List.of("sources/socket.md"),
            "memory", List.of("sources/memory.md"),
            "json", List.of("sources/file.md", "sources/file-formats.md#json"),
            "csv", List.of("sources/file.md", "sources/file-formats.md#csv"),
            "text", List.of("sources/file.md", "sources/file-formats.md#text"),
            "parquet", List.of("sources/file.md", "formats/parquet.md#Reading options"),
            "avro", List.of("sources/file.md", "formats/avro.md#Reading options"),
            "kafka", List.of("sources/kafka.md"),
            "iceberg", List.of("tables/iceberg.md#Source options"));
    private static final Map<String, List<String>> SINK_PAGES = pages(
            "console", List.of("sinks/console-foreach.md#console"),
            "memory", List.of("sinks/memory-noop.md#memory"),
            "noop", List.of("sinks/memory-noop.md#noop"),
            "json", List.of("sinks/file.md#All formats", "sinks/file.md#Compression of json, csv and text",
                    "sinks/file.md#json"),
            "csv", List.of("sinks/file.md#All formats", "sinks/file.md#Compression of json, csv and text",
                    "sinks/file.md#csv"),
            "text", List.of("sinks/file.md#All formats", "sinks/file.md#Compression of json, csv and text",
                    "sinks/file.md#text"),
            "parquet", List.of("formats/parquet.md#Writing options", "sinks/file.md#All formats"),
            "avro", List.of("formats/avro.md#Writing options", "sinks/file.md#All formats"),
            "kafka", List.of("sinks/kafka.md"),
            "iceberg", List.of("tables/iceberg.md#Sink options"));

    /** Format to pages, from pairs (more than Map.of's ten). */
    @SuppressWarnings("unchecked")
    private static Map<String, List<String>> pages(Object... pairs) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (List<String>) pairs[i + 1]);
        }
        return Map.copyOf(m);
    }

    /** One row of an option table: the option names of its first cell, and its default cell (or null). */
    record Row(String where, List<String> names, String defaultCell) {
    }

    @Test
    void everyBuiltInSourceDocumentsExactlyItsDeclaredOptions() throws IOException {
        Map<String, OptionSet> declared = new TreeMap<>();
        for (SourceProvider p : ServiceLoader.load(SourceProvider.class)) {
            if (builtIn(p)) {
                declared.put(p.shortName(), p.options());
            }
        }
        assertThat(declared.keySet()).containsExactlyInAnyOrderElementsOf(SOURCE_PAGES.keySet());
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, OptionSet> e : declared.entrySet()) {
            check("source " + e.getKey(), e.getValue(), OptionSet.none(), rows(SOURCE_PAGES.get(e.getKey())),
                    problems);
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyBuiltInSinkDocumentsExactlyItsDeclaredOptions() throws IOException {
        Map<String, OptionSet> declared = new TreeMap<>();
        for (SinkProvider p : ServiceLoader.load(SinkProvider.class)) {
            if (builtIn(p)) {
                declared.put(p.shortName(), p.options());
            }
        }
        assertThat(declared.keySet()).containsExactlyInAnyOrderElementsOf(SINK_PAGES.keySet());
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, OptionSet> e : declared.entrySet()) {
            check("sink " + e.getKey(), e.getValue(), DataStreamWriter.ENGINE_OPTIONS, rows(SINK_PAGES.get(e.getKey())),
                    problems);
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theEngineDocumentsExactlyItsWriterOptions() throws IOException {
        List<String> problems = new ArrayList<>();
        check("engine", DataStreamWriter.ENGINE_OPTIONS, OptionSet.none(),
                rows(List.of("engine.md#Engine options (on writeStream())")), problems);
        assertThat(problems).isEmpty();
    }

    @Test
    void theCheckFindsAMissingAnUndeclaredAndAWrongDefault() throws IOException {
        List<String> problems = new ArrayList<>();
        OptionSet options = OptionSet.of(OptionDef.integer("a", 1, "x"), OptionDef.bool("b", true, "y"));
        List<Row> rows = List.of(new Row("p.md", List.of("a"), "`2`"), new Row("p.md", List.of("c"), "`1`"));
        check("source t", options, OptionSet.none(), rows, problems);
        assertThat(problems).containsExactly(
                "source t: p.md lists option 'a' with default `2`, declared default 1",
                "source t: option 'b' is declared but its docs do not list it",
                "source t: p.md lists option 'c', which is not declared");
        assertThat(rows(List.of("sources/rate.md"))).extracting(Row::names)
                .containsExactly(List.of("rowsPerSecond"), List.of("rampUpTime"), List.of("numPartitions"));
    }

    private static boolean builtIn(Object provider) {
        String pkg = provider.getClass().getPackageName();
        return pkg.startsWith("io.sluice.core") || pkg.startsWith("io.sluice.files")
                || pkg.startsWith("io.sluice.kafka") || pkg.startsWith("io.sluice.parquet") || pkg.startsWith("io.sluice.avro")
                || pkg.startsWith("io.sluice.iceberg");
    }

    private static void check(String what, OptionSet declared, OptionSet engine, List<Row> rows,
                              List<String> problems) {
        Map<String, Row> documented = new LinkedHashMap<>();
        for (Row r : rows) {
            for (String n : r.names()) {
                documented.putIfAbsent(n, r);
            }
        }
        for (OptionDef d : declared.options()) {
            Row r = documented.get(d.name());
            if (r == null) {
                problems.add(what + ": option '" + d.name() + "' is declared but its docs do not list it");
            } else if (r.defaultCell() != null && !r.defaultCell().startsWith("as for")
                    && !r.defaultCell().replace("`", "").contains(d.defaultText())) {
                problems.add(what + ": " + r.where() + " lists option '" + d.name() + "' with default "
                        + r.defaultCell() + ", declared default " + d.defaultText());
            }
        }
        documented.forEach((n, r) -> {
            // Declared with this very spelling, or a member (kafka.acks) or the family (kafka.<setting>) of a prefix.
            int family = n.indexOf('<');
            boolean known = family >= 0
                    ? declared.prefixes().contains(n.substring(0, family).toLowerCase(java.util.Locale.ROOT))
                    : declared.find(n).or(() -> engine.find(n)).map(d -> d.name().equals(n))
                    .orElseGet(() -> declared.prefixes().stream().anyMatch(p -> n.toLowerCase(java.util.Locale.ROOT)
                            .startsWith(p)));
            if (!known) {
                problems.add(what + ": " + r.where() + " lists option '" + n + "', which is not declared");
            }
        });
    }

    /** The rows of the option tables of these pages ({@code page.md} or {@code page.md#Section heading}). */
    private static List<Row> rows(List<String> pages) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String page : pages) {
            String[] ps = page.split("#", 2);
            List<String> lines = section(Files.readAllLines(DOCS.resolve(ps[0])), ps.length > 1 ? ps[1] : null, page);
            List<String> header = null;
            for (String line : lines) {
                if (!line.startsWith("|")) {
                    header = null;
                    continue;
                }
                List<String> cells = cells(line);
                if (header == null) {
                    header = cells;
                    continue;
                }
                if (!header.get(0).equals("option") || cells.get(0).startsWith("---")) {
                    continue;
                }
                List<String> names = new ArrayList<>();
                Matcher m = CODE.matcher(REMARK.matcher(cells.get(0)).replaceAll(""));
                while (m.find()) {
                    names.add(m.group(1));
                }
                int d = header.indexOf("default");
                rows.add(new Row(page, names, d >= 0 ? cells.get(d) : null));
            }
        }
        return rows;
    }

    /** The lines under the heading {@code title} (backticks ignored) up to the next heading of its level or above. */
    private static List<String> section(List<String> lines, String title, String page) {
        if (title == null) {
            return lines;
        }
        int start = -1;
        int level = 0;
        for (int i = 0; i < lines.size(); i++) {
            Matcher h = HEADING.matcher(lines.get(i));
            if (!h.matches()) {
                continue;
            }
            if (start >= 0 && h.group(1).length() <= level) {
                return lines.subList(start, i);
            }
            if (start < 0 && h.group(2).replace("`", "").trim().equals(title)) {
                start = i + 1;
                level = h.group(1).length();
            }
        }
        assertThat(start).as("section " + page).isGreaterThanOrEqualTo(0);
        return lines.subList(start, lines.size());
    }

    private static List<String> cells(String line) {
        String t = line.trim();
        t = t.substring(1, t.endsWith("|") ? t.length() - 1 : t.length());
        List<String> out = new ArrayList<>();
        for (String c : t.split("(?<!\\\\)\\|", -1)) {
            out.add(c.trim());
        }
        return out;
    }
}

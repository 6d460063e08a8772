package io.sluice.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a pipeline file (YAML):
 * <pre>
 * name: orders
 * source:
 *   format: rate-micro-batch
 *   options: {rowsPerBatch: 100}
 *   schema: "id long, amount long"
 * transforms:
 *   - where: amount > 10
 *   - "select: id, amount * 2 AS doubled"
 * sink: {format: noop, options: {}}
 * checkpoint: /var/lib/orders/chk
 * trigger: availableNow
 * progressFile: /var/log/orders/progress.jsonl
 * conf: {sluice.options.unknown: error}
 * outputMode: append
 * sql: SELECT id, amount FROM source WHERE amount > 10
 * watermark: "timestamp, 10 seconds"
 * metricsPort: 9400
 * uiPort: 4040
 * otlpEndpoint: http://localhost:4318/v1/metrics
 * otlpStep: 30s
 * otlpHeaders: {Authorization: Bearer ...}
 * </pre>
 * Every key is checked: an unknown key, a value of the wrong shape or a bad trigger or transform fails with the
 * file, the line and what is accepted. Scalars keep their text as written ({@code 1e3} stays {@code 1e3}). A key
 * with no value ({@code checkpoint:}) counts as not given, except in {@code options}, where it is an error.
 */
final class PipelineFile {
    static final List<String> TOP_KEYS = List.of("name", "source", "transforms", "sink", "checkpoint", "trigger",
            "progressFile", "conf", "outputMode", "sql", "watermark", "metricsPort", "metricsHost", "uiPort", "uiHost",
            "otlpEndpoint", "otlpStep", "otlpHeaders");
    static final List<String> SOURCE_KEYS = List.of("format", "options", "schema");
    static final List<String> SINK_KEYS = List.of("format", "options");

    private static final YAMLFactory YAML = new YAMLFactory();

    private final String file;

    private PipelineFile(String file) {
        this.file = file;
    }

    /**
     * Reads and checks a pipeline file.
     *
     * @throws PipelineFileException naming the file (as given), the line and the problem
     */
    static Pipeline read(Path path) {
        String shown = path.toString();
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new PipelineFileException("Cannot read pipeline file " + shown + ": no such file");
        } catch (IOException e) {
            throw new PipelineFileException("Cannot read pipeline file " + shown + ": " + e.getMessage());
        }
        return new PipelineFile(shown).parse(text);
    }

    /** Parses pipeline text; {@code file} names it in messages. */
    static Pipeline parse(String file, String text) {
        return new PipelineFile(file).parse(text);
    }

    private Pipeline parse(String text) {
        Node root;
        try (JsonParser p = YAML.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new PipelineFileException(file + ": the pipeline file is empty");
            }
            root = read(p);
            if (p.nextToken() != null) {
                throw problem(line(p), "the file holds more than one YAML document");
            }
        } catch (JsonProcessingException e) {
            throw new PipelineFileException(file + ": not valid YAML: " + e.getOriginalMessage().lines().findFirst()
                    .orElse("") + " (line " + e.getLocation().getLineNr() + ")");
        } catch (IOException e) {
            throw new PipelineFileException(file + ": cannot be read: " + e.getMessage());
        }
        if (root instanceof Scalar s && s.isNull()) {
            throw new PipelineFileException(file + ": the pipeline file is empty");
        }
        Mapping top = mapping(root, "the pipeline", "a mapping of keys (" + String.join(", ", TOP_KEYS) + ")");
        checkKeys(top, "", TOP_KEYS);

        String sourceFormat = null;
        Map<String, String> sourceOptions = new LinkedHashMap<>();
        String schema = null;
        Node source = top.get("source");
        if (present(source)) {
            Mapping m = mapping(source, "'source'", "a mapping (" + String.join(", ", SOURCE_KEYS) + ")");
            checkKeys(m, "source.", SOURCE_KEYS);
            sourceFormat = scalar(m.get("format"), "source.format");
            sourceOptions = options(m.get("options"), "source.options");
            schema = scalar(m.get("schema"), "source.schema");
        }
        String sinkFormat = null;
        Map<String, String> sinkOptions = new LinkedHashMap<>();
        Node sink = top.get("sink");
        if (present(sink)) {
            Mapping m = mapping(sink, "'sink'", "a mapping (" + String.join(", ", SINK_KEYS) + ")");
            checkKeys(m, "sink.", SINK_KEYS);
            sinkFormat = scalar(m.get("format"), "sink.format");
            sinkOptions = options(m.get("options"), "sink.options");
        }
        TriggerSpec trigger = null;
        Node t = top.get("trigger");
        String triggerText = scalar(t, "trigger");
        if (triggerText != null) {
            try {
                trigger = TriggerSpec.parse(triggerText);
            } catch (SpecException e) {
                throw problem(t.line(), "invalid trigger '" + triggerText + "': " + e.getMessage());
            }
        }
        Node om = top.get("outputMode");
        String outputMode = scalar(om, "outputMode");
        if (outputMode != null) {
            String m = RunCommand.outputMode(outputMode);
            if (m == null) {
                throw problem(om.line(), "invalid outputMode '" + outputMode + "': " + RunCommand.OUTPUT_MODES);
            }
            outputMode = m;
        }
        Node w = top.get("watermark");
        String watermarkText = scalar(w, "watermark");
        WatermarkSpec watermark = null;
        if (watermarkText != null) {
            try {
                watermark = WatermarkSpec.parse(watermarkText);
            } catch (SpecException e) {
                throw problem(w.line(), "invalid watermark '" + watermarkText + "': " + e.getMessage());
            }
        }
        return new Pipeline(scalar(top.get("name"), "name"), sourceFormat, sourceOptions, schema,
                transforms(top.get("transforms")), sinkFormat, sinkOptions, scalar(top.get("checkpoint"), "checkpoint"),
                trigger, scalar(top.get("progressFile"), "progressFile"), options(top.get("conf"), "conf"),
                outputMode, scalar(top.get("sql"), "sql"), watermark, serving(top));
    }

    /** {@code metricsPort}, {@code uiPort}...: the ports are checked here, with their line. */
    private Serving serving(Mapping top) {
        Integer metricsPort = port(top.get("metricsPort"), "metricsPort");
        Integer uiPort = port(top.get("uiPort"), "uiPort");
        String metricsHost = scalar(top.get("metricsHost"), "metricsHost");
        String uiHost = scalar(top.get("uiHost"), "uiHost");
        if (metricsHost != null && metricsPort == null) {
            throw problem(top.get("metricsHost").line(), "metricsHost needs metricsPort");
        }
        if (uiHost != null && uiPort == null) {
            throw problem(top.get("uiHost").line(), "uiHost needs uiPort");
        }
        String endpoint = scalar(top.get("otlpEndpoint"), "otlpEndpoint");
        String step = scalar(top.get("otlpStep"), "otlpStep");
        Map<String, String> headers = options(top.get("otlpHeaders"), "otlpHeaders");
        if (endpoint == null && step != null) {
            throw problem(top.get("otlpStep").line(), "otlpStep needs otlpEndpoint");
        }
        if (endpoint == null && !headers.isEmpty()) {
            throw problem(top.get("otlpHeaders").line(), "otlpHeaders needs otlpEndpoint");
        }
        for (Map.Entry<String, String> h : headers.entrySet()) {
            if (h.getKey().contains(",") || h.getValue().contains(",")) {
                // Micrometer's otlp.headers is key1=value1,key2=value2: a comma cannot be carried. The value may
                // be a secret: not repeated.
                throw problem(top.get("otlpHeaders").line(), "'otlpHeaders." + h.getKey() + "': a header's name or "
                        + "value cannot contain ','");
            }
        }
        return new Serving(metricsPort, metricsHost, uiPort, uiHost, endpoint, step, headers);
    }

    private Integer port(Node node, String what) {
        String text = scalar(node, what);
        if (text == null) {
            return null;
        }
        Integer port = RunCommand.port(text);
        if (port == null) {
            throw problem(node.line(), "invalid " + what + " '" + text + "': expected 0 to 65535");
        }
        return port;
    }

    /** Items: {@code "where: cond"} / {@code "select: a, b"} as text, or {@code where: cond} / {@code select: [a, b]}. */
    private List<Transform> transforms(Node node) {
        if (!present(node)) {
            return null;
        }
        if (!(node instanceof Sequence seq)) {
            throw problem(node.line(), "'transforms' must be a list, e.g. [\"where: amount > 10\"]");
        }
        List<Transform> out = new ArrayList<>();
        for (Node item : seq.items()) {
            try {
                out.add(transform(item));
            } catch (SpecException e) {
                throw problem(item.line(), "invalid transform: " + e.getMessage());
            }
        }
        return out;
    }

    private Transform transform(Node item) throws SpecException {
        if (item instanceof Scalar s && !s.isNull()) {
            return Transform.parse(s.text());
        }
        if (item instanceof Mapping m && m.entries().size() == 1) {
            Map.Entry<String, Node> e = m.entries().entrySet().iterator().next();
            Node value = e.getValue();
            switch (e.getKey()) {
                case "where" -> {
                    if (value instanceof Scalar s && !s.isNull()) {
                        return Transform.where(s.text());
                    }
                    throw new SpecException("'where' takes one SQL condition as text");
                }
                case "select" -> {
                    if (value instanceof Scalar s && !s.isNull()) {
                        return Transform.select(Transform.splitExpressions(s.text()));
                    }
                    if (value instanceof Sequence seq) {
                        List<String> exprs = new ArrayList<>();
                        for (Node n : seq.items()) {
                            if (!(n instanceof Scalar s) || s.isNull()) {
                                throw new SpecException("each expression of 'select' must be text");
                            }
                            exprs.add(s.text());
                        }
                        return Transform.select(exprs);
                    }
                    throw new SpecException("'select' takes SQL expressions, as text or a list");
                }
                default -> {
                }
            }
        }
        throw new SpecException(Transform.ACCEPTED);
    }

    private Map<String, String> options(Node node, String what) {
        OptionMapBuilder out = new OptionMapBuilder();
        if (!present(node)) {
            return out.build();
        }
        Mapping m = mapping(node, "'" + what + "'", "a mapping of option names to values");
        for (Map.Entry<String, Node> e : m.entries().entrySet()) {
            Node v = e.getValue();
            String key = what + "." + e.getKey();
            if (!(v instanceof Scalar s)) {
                throw problem(v.line(), "'" + key + "' must be a single value, not a list or mapping");
            }
            if (s.isNull()) {
                throw problem(v.line(), "'" + key + "' has no value");
            }
            out.put(e.getKey(), s.text());
        }
        return out.build();
    }

    private String scalar(Node node, String what) {
        if (!present(node)) {
            return null;
        }
        if (!(node instanceof Scalar s)) {
            throw problem(node.line(), "'" + what + "' must be a single value, not a list or mapping");
        }
        return s.text();
    }

    private Mapping mapping(Node node, String what, String expected) {
        if (node instanceof Mapping m) {
            return m;
        }
        throw problem(node.line(), what + " must be " + expected);
    }

    private void checkKeys(Mapping m, String prefix, List<String> accepted) {
        for (String key : m.entries().keySet()) {
            if (!accepted.contains(key)) {
                String where = prefix.isEmpty() ? "" : " under " + prefix.substring(0, prefix.length() - 1);
                throw problem(m.keyLines().get(key), "unknown key '" + prefix + key + "'; accepted keys" + where
                        + ": " + String.join(", ", accepted));
            }
        }
    }

    private static boolean present(Node node) {
        return node != null && !(node instanceof Scalar s && s.isNull());
    }

    private PipelineFileException problem(int line, String message) {
        return new PipelineFileException(file + ", line " + line + ": " + message);
    }

    // ------------------------------------------------------------ a small tree that keeps scalars' text and lines

    private sealed interface Node permits Scalar, Mapping, Sequence {
        int line();
    }

    private record Scalar(String text, boolean isNull, int line) implements Node {
    }

    private record Mapping(Map<String, Node> entries, Map<String, Integer> keyLines, int line) implements Node {
        Node get(String key) {
            return entries.get(key);
        }
    }

    private record Sequence(List<Node> items, int line) implements Node {
    }

    /** Reads the value at the parser's current token. */
    private Node read(JsonParser p) throws IOException {
        int line = line(p);
        JsonToken token = p.currentToken();
        switch (token) {
            case START_OBJECT -> {
                Map<String, Node> entries = new LinkedHashMap<>();
                Map<String, Integer> keyLines = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    int keyLine = line(p);
                    if (entries.containsKey(key)) {
                        throw problem(keyLine, "duplicate key '" + key + "'");
                    }
                    p.nextToken();
                    entries.put(key, read(p));
                    keyLines.put(key, keyLine);
                }
                return new Mapping(entries, keyLines, line);
            }
            case START_ARRAY -> {
                List<Node> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(read(p));
                }
                return new Sequence(items, line);
            }
            case VALUE_NULL -> {
                return new Scalar(null, true, line);
            }
            default -> {
                // getText() is the scalar as written: numbers and booleans keep their spelling.
                return new Scalar(p.getText(), false, line);
            }
        }
    }

    private static int line(JsonParser p) {
        return p.currentTokenLocation().getLineNr();
    }
}

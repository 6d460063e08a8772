package io.sluice.metrics;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text format 0.0.4 and of OpenMetrics 1.0 text: every line must be a HELP, TYPE
 * (or, in OpenMetrics, UNIT) comment, a sample of a declared family, or OpenMetrics' final {@code # EOF}; label values
 * are unescaped; a series may appear once. Samples are keyed {@code name{a="x",b="y"}} with labels sorted.
 */
final class PrometheusText {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern META = Pattern.compile("# (HELP|TYPE|UNIT) (" + NAME.pattern() + ")(?: (.*))?");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME.pattern() + ")(\\{(.*)})? (\\S+)( -?[0-9.]+)?");

    final Map<String, Double> samples = new LinkedHashMap<>();
    final Map<String, String> types = new HashMap<>();
    final Map<String, String> help = new HashMap<>();

    static PrometheusText parse(String text, boolean openMetrics) {
        PrometheusText t = new PrometheusText();
        String[] lines = text.split("\n", -1);
        if (!lines[lines.length - 1].isEmpty()) {
            throw new IllegalArgumentException("The exposition must end with a line feed");
        }
        int end = lines.length - 1;
        if (openMetrics) {
            if (end == 0 || !"# EOF".equals(lines[end - 1])) {
                throw new IllegalArgumentException("OpenMetrics must end with # EOF");
            }
            end--;
        }
        for (int i = 0; i < end; i++) {
            String line = lines[i];
            if (line.startsWith("#")) {
                Matcher m = META.matcher(line);
                if (!m.matches()) {
                    throw new IllegalArgumentException("Line " + (i + 1) + " is not HELP/TYPE/UNIT: " + line);
                }
                if ("TYPE".equals(m.group(1))) {
                    if (t.types.put(m.group(2), m.group(3)) != null) {
                        throw new IllegalArgumentException("Family typed twice: " + m.group(2));
                    }
                } else if ("HELP".equals(m.group(1))) {
                    t.help.put(m.group(2), m.group(3));
                }
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new IllegalArgumentException("Line " + (i + 1) + " is not a sample: " + line);
            }
            String name = m.group(1);
            if (family(t, name) == null) {
                throw new IllegalArgumentException("Sample of an undeclared family: " + line);
            }
            Map<String, String> labels = labels(m.group(3) == null ? "" : m.group(3), line);
            StringBuilder key = new StringBuilder(name).append('{');
            labels.forEach((k, v) -> key.append(key.charAt(key.length() - 1) == '{' ? "" : ",")
                    .append(k).append("=\"").append(v).append('"'));
            key.append('}');
            if (t.samples.put(key.toString(), value(m.group(4), line)) != null) {
                throw new IllegalArgumentException("Series repeated: " + key);
            }
        }
        return t;
    }

    private static String family(PrometheusText t, String name) {
        if (t.types.containsKey(name)) {
            return name;
        }
        for (String suffix : new String[] {"_total", "_count", "_sum", "_bucket", "_created", "_max"}) {
            if (name.endsWith(suffix) && t.types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return null;
    }

    private static double value(String s, String line) {
        switch (s) {
            case "NaN":
                return Double.NaN;
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("Not a value: " + line);
                }
        }
    }

    private static Map<String, String> labels(String s, String line) {
        Map<String, String> out = new TreeMap<>();
        int i = 0;
        while (i < s.length()) {
            int eq = s.indexOf('=', i);
            if (eq < 0 || eq + 1 >= s.length() || s.charAt(eq + 1) != '"') {
                throw new IllegalArgumentException("Bad labels: " + line);
            }
            String name = s.substring(i, eq);
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("Bad label name '" + name + "': " + line);
            }
            StringBuilder v = new StringBuilder();
            int j = eq + 2;
            for (;; j++) {
                if (j >= s.length()) {
                    throw new IllegalArgumentException("Unterminated label value: " + line);
                }
                char c = s.charAt(j);
                if (c == '\\') {
                    char n = s.charAt(++j);
                    v.append(n == 'n' ? '\n' : n);
                } else if (c == '"') {
                    break;
                } else {
                    v.append(c);
                }
            }
            if (out.put(name, v.toString()) != null) {
                throw new IllegalArgumentException("Label repeated: " + line);
            }
            i = j + 1;
            if (i < s.length()) {
                if (s.charAt(i) != ',') {
                    throw new IllegalArgumentException("Bad labels: " + line);
                }
                i++;
            }
        }
        return out;
    }

    /** The value of one series; labels given as name, value pairs in any order. */
    double get(String name, String... labels) {
        Map<String, String> l = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            l.put(labels[i], labels[i + 1]);
        }
        StringBuilder key = new StringBuilder(name).append('{');
        l.forEach((k, v) -> key.append(key.charAt(key.length() - 1) == '{' ? "" : ",")
                .append(k).append("=\"").append(v).append('"'));
        key.append('}');
        Double v = samples.get(key.toString());
        if (v == null) {
            throw new AssertionError("No series " + key + " in " + samples.keySet());
        }
        return v;
    }
}

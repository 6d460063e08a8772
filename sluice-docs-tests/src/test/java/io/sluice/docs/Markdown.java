package io.sluice.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The code blocks of a Markdown page, with the {@code <!-- doctest: ... -->} directives written just before each:
 * fenced blocks (``` or ~~~, with their info string) and indented blocks (four spaces after a blank line).
 */
final class Markdown {
    private static final Pattern FENCE = Pattern.compile("^( {0,3})(`{3,}|~{3,})\\s*([^\\s`]*).*$");
    private static final String DIRECTIVE = "<!-- doctest:";

    private Markdown() {
    }

    /** What a block is, from its info string; an indented block holds commands. */
    enum Kind {
        JAVA, COMMANDS, TEXT, JSON, YAML, PYTHON, UNKNOWN;

        static Kind of(String info) {
            return switch (info.toLowerCase(Locale.ROOT)) {
                case "java" -> JAVA;
                case "bash", "sh", "shell" -> COMMANDS;
                case "text" -> TEXT;
                case "json" -> JSON;
                case "yaml", "yml" -> YAML;
                case "python", "py" -> PYTHON;
                default -> UNKNOWN;
            };
        }
    }

    /**
     * A directive: {@code name} and the rest of its text ({@code argument}, possibly several lines, as a wrap's
     * template), at {@code line} (1-based) of its page.
     */
    record Directive(String name, String argument, int line) {
    }

    /**
     * A code block: {@code line} is the page's line (1-based) of its first content line; {@code text} its content
     * without the fence or the indentation.
     */
    record Block(String page, int line, Kind kind, String info, String text, List<Directive> directives) {
        Block {
            directives = List.copyOf(directives);
        }

        String where() {
            return page + ":" + line;
        }

        Directive directive(String name) {
            return directives.stream().filter(d -> d.name().equals(name)).findFirst().orElse(null);
        }

        boolean has(String name) {
            return directive(name) != null;
        }
    }

    /** The blocks of {@code text} (named {@code page} in messages) and any misplaced directive as a problem. */
    record Page(String page, List<Block> blocks, List<String> problems) {
    }

    static Page parse(String page, String text) {
        String[] lines = text.split("\n", -1);
        List<Block> blocks = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<Directive> pending = new ArrayList<>();
        boolean previousBlank = true;
        int i = 0;
        while (i < lines.length) {
            String l = lines[i];
            if (l.strip().startsWith(DIRECTIVE)) {
                int start = i;
                StringBuilder body = new StringBuilder(l.strip().substring(DIRECTIVE.length()));
                while (!body.toString().contains("-->") && i + 1 < lines.length) {
                    body.append('\n').append(lines[++i]);
                }
                String content = body.toString();
                int end = content.indexOf("-->");
                if (end < 0) {
                    problems.add(page + ":" + (start + 1) + ": a doctest directive without its closing -->");
                    break;
                }
                content = content.substring(0, end).strip();
                int space = firstSpace(content);
                String name = space < 0 ? content : content.substring(0, space);
                String arg = space < 0 ? "" : content.substring(space + 1).strip();
                pending.add(new Directive(name, arg, start + 1));
                i++;
                previousBlank = true;
                continue;
            }
            Matcher fence = FENCE.matcher(l);
            if (fence.matches()) {
                String marker = fence.group(2);
                int indent = fence.group(1).length();
                int j = i + 1;
                List<String> content = new ArrayList<>();
                while (j < lines.length && !isClosing(lines[j], marker)) {
                    String c = lines[j];
                    int strip = 0;
                    while (strip < indent && strip < c.length() && c.charAt(strip) == ' ') {
                        strip++;
                    }
                    content.add(c.substring(strip));
                    j++;
                }
                if (j == lines.length) {
                    problems.add(page + ":" + (i + 1) + ": a code block that is never closed");
                }
                blocks.add(new Block(page, i + 2, Kind.of(fence.group(3)), fence.group(3), String.join("\n", content),
                        pending));
                pending.clear();
                i = j + 1;
                previousBlank = false;
                continue;
            }
            if (previousBlank && (l.startsWith("    ") || l.startsWith("\t")) && !l.isBlank()) {
                int j = i;
                List<String> content = new ArrayList<>();
                while (j < lines.length && (lines[j].startsWith("    ") || lines[j].startsWith("\t")
                        || lines[j].isBlank())) {
                    String c = lines[j];
                    content.add(c.startsWith("\t") ? c.substring(1) : c.length() >= 4 ? c.substring(4) : "");
                    j++;
                }
                while (!content.isEmpty() && content.get(content.size() - 1).isBlank()) {
                    content.remove(content.size() - 1);
                }
                blocks.add(new Block(page, i + 1, Kind.COMMANDS, "(indented)", String.join("\n", content), pending));
                pending.clear();
                i = j;
                previousBlank = true;
                continue;
            }
            if (!l.isBlank() && !pending.isEmpty()) {
                problems.add(page + ":" + pending.get(0).line() + ": the doctest directive '" + pending.get(0).name()
                        + "' is not followed by a code block");
                pending.clear();
            }
            previousBlank = l.isBlank();
            i++;
        }
        if (!pending.isEmpty()) {
            problems.add(page + ":" + pending.get(0).line() + ": the doctest directive '" + pending.get(0).name()
                    + "' is not followed by a code block");
        }
        return new Page(page, blocks, problems);
    }

    private static int firstSpace(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isClosing(String line, String marker) {
        String s = line.strip();
        return s.length() >= marker.length() && s.chars().allMatch(c -> c == marker.charAt(0))
                && line.indexOf(marker.charAt(0)) <= 3;
    }
}

package io.sluice.cli;

import io.sluice.core.StreamingQueryProgress;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How one batch's progress is shown: a plain line (one per batch, for logs and pipes) or a live line (redrawn in
 * place on a terminal). Pure functions of their arguments.
 */
final class ProgressView {
    /** Carriage return, then ANSI "erase the whole line": the live line is redrawn over the previous one. */
    static final String REDRAW = "\r\033[2K";
    static final int BAR_WIDTH = 20;

    private ProgressView() {
    }

    /**
     * {@code batch 3: 1000 rows, 512.3 input rows/s, 20000.0 processed rows/s, 50 ms}, followed by
     * {@code , backlog 45% drained (55 files left)} when a backlog is known.
     */
    static String plainLine(StreamingQueryProgress p, Backlog.Drain drain) {
        String line = "batch " + p.batchId() + ": " + p.numInputRows() + " rows, " + rate(p.inputRowsPerSecond())
                + " input rows/s, " + rate(p.processedRowsPerSecond()) + " processed rows/s, " + p.batchDuration()
                + " ms";
        if (drain != null) {
            line += ", backlog " + percent(drain.fraction()) + "% drained (" + remaining(drain) + ")";
        }
        return line;
    }

    /**
     * {@link #REDRAW} then {@code batch 3 | 1000 rows | 512.3 in/s | 20000.0 processed/s | 50 ms}, followed by
     * {@code  | [#########...........] 45% 55 files left} when a backlog is known; the text is cut to
     * {@code columns - 1} characters so it never wraps (a wrapped line could not be redrawn).
     */
    static String liveLine(StreamingQueryProgress p, Backlog.Drain drain, int columns) {
        String line = "batch " + p.batchId() + " | " + p.numInputRows() + " rows | " + rate(p.inputRowsPerSecond())
                + " in/s | " + rate(p.processedRowsPerSecond()) + " processed/s | " + p.batchDuration() + " ms";
        if (drain != null) {
            line += " | " + bar(drain.fraction(), BAR_WIDTH) + " " + percent(drain.fraction()) + "% "
                    + remaining(drain);
        }
        int max = Math.max(10, columns - 1);
        return REDRAW + (line.length() > max ? line.substring(0, max) : line);
    }

    /** {@code [#####...............]}: {@code width} cells, a cell filled per whole {@code 1/width} drained. */
    static String bar(double fraction, int width) {
        double f = Double.isFinite(fraction) ? Math.max(0, Math.min(1, fraction)) : 0;
        int filled = (int) Math.floor(f * width);
        return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "]";
    }

    /** Whole percent, rounded down: 100 only when everything is drained. */
    static long percent(double fraction) {
        double f = Double.isFinite(fraction) ? Math.max(0, Math.min(1, fraction)) : 0;
        return (long) Math.floor(f * 100);
    }

    /** One decimal, as Spark rounds rates; {@code -} when not a number. */
    static String rate(double perSecond) {
        return Double.isFinite(perSecond) ? oneDecimal(perSecond) : "-";
    }

    /**
     * {@code String.format(Locale.ROOT, "%.1f", v)} for a finite {@code v} (half up from the shortest decimal that
     * reads back as {@code v}, as the Formatter rounds), without the Formatter: its first use sets up the locale
     * data, some 40 ms of a command's start.
     */
    static String oneDecimal(double v) {
        return BigDecimal.valueOf(v).setScale(1, RoundingMode.HALF_UP).toPlainString();
    }

    static String remaining(Backlog.Drain drain) {
        long left = drain.remaining();
        return switch (drain.unit()) {
            case "files" -> left + (left == 1 ? " file left" : " files left");
            case "bytes" -> bytes(left) + " left";
            default -> left + (left == 1 ? " offset behind" : " offsets behind");
        };
    }

    /** {@code 512 B}, {@code 1.5 KiB}, {@code 20.0 MiB}, {@code 3.2 GiB}. */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return oneDecimal(v) + " " + units[u];
    }
}

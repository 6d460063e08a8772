package io.sluice.files.format;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A malformed JSON or CSV record met in parse mode FAILFAST. The message names the file, the 1-based line where
 * the record starts (for multiLine JSON: the line where the problem was found), the record text (cut after 1000
 * characters) and the reason, in Spark's wording. The cause is the parser's own error, when there is one.
 */
public final class MalformedRecordException extends IOException {
    private static final long serialVersionUID = 1L;
    static final int MAX_RECORD_CHARS = 1000;

    private final transient Path file;
    private final long line;

    MalformedRecordException(Path file, long line, String record, String reason, Throwable cause) {
        super(message(file, line, record, reason), cause);
        this.file = file;
        this.line = line;
    }

    static String message(Path file, long line, String record, String reason) {
        String shown = record == null ? "" : record.length() > MAX_RECORD_CHARS
                ? record.substring(0, MAX_RECORD_CHARS) + "..." : record;
        return "Malformed records are detected in record parsing: file " + file + ", line " + line + ": " + shown
                + (reason == null || reason.isEmpty() ? "" : "\nReason: " + reason)
                + "\nParse Mode: FAILFAST. To process malformed records as null result, try setting the option "
                + "'mode' as 'PERMISSIVE'.";
    }

    /** The file that holds the record. */
    public Path file() {
        return file;
    }

    /** The 1-based line number of the record (see the class comment). */
    public long line() {
        return line;
    }
}

package io.sluice.files.format;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;

/**
 * Splits CSV records into tokens exactly as univocity's CsvParser (2.9, the version Spark 4 uses) does with the
 * settings Spark gives it: unquoted values are taken literally up to the delimiter; a value starting with the
 * quote runs to the closing quote, where {@code escape}+quote is a quote, {@code charToEscapeQuoteEscaping}+escape
 * is an escape, a doubled quote is kept as one quote followed by the rest of the value read up to the delimiter
 * (univocity's "unescaped quote" rule, {@code unescapedQuoteHandling}), and whitespace after the closing quote is
 * dropped. An unquoted empty value is a null token; a quoted empty one is {@code emptyValue}.
 *
 * <p>Two modes: line mode ({@link #tokenizeLine}) parses one line that the caller split off, its end acting as the
 * end of input (Spark's non-multiLine reading); stream mode ({@link #nextRecord}) reads records that may span lines
 * inside quotes, line separators being {@code lineSep} or the first of {@code \r\n}, {@code \n}, {@code \r} found.
 *
 * <p>Tokens are views: {@link #tokenChars}, {@link #tokenStart}, {@link #tokenLength} (-1 for a null token), valid
 * until the next record. Not thread-safe; one per open file.
 */
final class CsvTokenizer {
    static final char NL = '\n';
    private static final char DELIM = '\uFFFF';

    private final char delimiter;
    private final char[] delimChars;
    private final boolean multiDelim;
    private final char quote;
    private final char quoteEscape;
    private final char escapeEscape;
    private final char comment;
    private final boolean commentSet;
    private final boolean ignoreLeading;
    private final boolean ignoreTrailing;
    private final CsvSettings.QuoteHandling handling;
    private final boolean untilDelimiter;
    private final boolean parseUnescapedQuotes;
    private final int maxChars;
    private final int maxColumns;
    private final char[] emptyValue;
    /** Whether {@link #tokenizeSimpleLine} applies: one delimiter character, no trimming. */
    private final boolean simple;

    // input
    private char[] buf;
    private int pos;
    private int limit;
    private int recordStart;
    private boolean multiLine;
    private Reader source;
    private boolean sourceEof;
    private boolean normalizeInQuotes = true;
    private boolean normalize = true;
    private char sep0 = NL;
    private char sep1;
    private boolean sepKnown;
    private long newlines;
    private long recordLine;

    // parser state
    private char ch;
    private char prev;
    private boolean unescaped;
    private boolean trim;
    private boolean eof;
    private boolean lastValueDone;
    private boolean skipped;
    private char[] app = new char[256];
    private int appLen;
    private char[] ws = new char[16];
    private int wsLen;

    // tokens
    private int columns;
    private int[] tokStart = new int[32];
    private int[] tokLen = new int[32];
    private boolean[] tokPooled = new boolean[32];
    private char[] pool = new char[1024];
    private int poolLen;

    CsvTokenizer(CsvSettings s) {
        this.delimChars = s.delimiter.toCharArray();
        this.multiDelim = delimChars.length > 1;
        this.delimiter = multiDelim ? DELIM : delimChars[0];
        this.quote = s.quote;
        this.quoteEscape = s.escape;
        this.escapeEscape = s.escapeEscape;
        // univocity keeps its default comment character '#' in the format when Spark disables comments; it
        // matters only at the end of input (consumeValueOnEOF).
        this.comment = s.commentSet ? s.comment : '#';
        this.commentSet = s.commentSet;
        this.ignoreLeading = s.ignoreLeadingWhiteSpace;
        this.ignoreTrailing = s.ignoreTrailingWhiteSpace;
        this.handling = s.quoteHandling;
        this.untilDelimiter = handling == CsvSettings.QuoteHandling.STOP_AT_DELIMITER
                || handling == CsvSettings.QuoteHandling.SKIP_VALUE
                || handling == CsvSettings.QuoteHandling.BACK_TO_DELIMITER;
        this.parseUnescapedQuotes = handling != CsvSettings.QuoteHandling.RAISE_ERROR;
        this.maxChars = s.maxCharsPerColumn;
        this.maxColumns = s.maxColumns;
        this.emptyValue = s.emptyValue.toCharArray();
        this.simple = !multiDelim && !ignoreLeading && !ignoreTrailing;
        if (s.lineSep != null) {
            sep0 = s.lineSep.charAt(0);
            sep1 = s.lineSep.length() > 1 ? s.lineSep.charAt(1) : '\0';
            sepKnown = true;
            normalizeInQuotes = false;
        }
    }

    /** A CSV problem univocity reports as a TextParsingException: it fails the query whatever the mode. */
    static final class CsvSyntaxException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CsvSyntaxException(String message) {
            super(message);
        }
    }

    // ---------------------------------------------------------------------------------------------- input

    /** Line mode: tokenizes {@code line[start, end)}; a record always results (the caller skips blank lines). */
    void tokenizeLine(char[] line, int start, int end) {
        multiLine = false;
        buf = line;
        pos = start;
        limit = end;
        recordStart = start;
        beginRecord();
        int c = read();
        if (c < 0) {
            return;
        }
        ch = (char) c;
        parseRecord();
        if (eof) {
            handleEof();
        }
    }

    /**
     * Line mode's common case in one pass: when no value of the line starts with the quote character, the line
     * does not end with a delimiter, holds no {@code \n} and the settings do not trim, univocity's tokens are the
     * pieces between the delimiters, an empty one a null token; this sets them and returns true. Otherwise (and
     * when a piece is too long or there are too many, so that {@link #tokenizeLine} gives univocity's error) it
     * returns false and the tokens are undefined.
     */
    boolean tokenizeSimpleLine(char[] line, int start, int end) {
        if (!simple || start == end || line[start] == quote) {
            return false;
        }
        multiLine = false;
        buf = line;
        columns = 0;
        poolLen = 0;
        int from = start;
        for (int p = start; ; p++) {
            if (p == end || line[p] == delimiter) {
                int len = p - from;
                if (columns >= maxColumns || maxChars != -1 && len > maxChars) {
                    return false;
                }
                if (columns == tokStart.length) {
                    slot();
                }
                if (len == 0) {
                    if (p == end) {
                        return false; // a delimiter at the end: univocity's end-of-input rules decide
                    }
                    tokStart[columns] = 0;
                    tokLen[columns] = -1;
                } else {
                    tokStart[columns] = from;
                    tokLen[columns] = len;
                }
                tokPooled[columns] = false;
                columns++;
                if (p == end) {
                    return true;
                }
                from = p + 1;
                if (from < end && line[from] == quote) {
                    return false;
                }
            } else if (line[p] == NL) {
                return false;
            }
        }
    }

    /** Stream mode over a whole file. */
    void open(Reader reader) {
        multiLine = true;
        source = reader;
        sourceEof = false;
        buf = new char[128 * 1024];
        pos = 0;
        limit = 0;
        newlines = 0;
        refill();
        if (limit > 0 && buf[0] == '\uFEFF') {
            pos = 1;
        }
        if (!sepKnown) {
            detectLineSeparator();
        }
    }

    // univocity's LineSeparatorDetector, run on the first buffer of input.
    private void detectLineSeparator() {
        char s1 = 0;
        char s2 = 0;
        for (int i = pos; i < limit; i++) {
            char c = buf[i];
            if (c == '\n' || c == '\r') {
                if (s1 == 0) {
                    s1 = c;
                } else {
                    s2 = c;
                    break;
                }
            } else if (s1 != 0) {
                break;
            }
        }
        if (s1 == '\r') {
            sep0 = '\r';
            sep1 = s2 == '\n' ? '\n' : '\0';
        } else {
            sep0 = '\n';
            sep1 = '\0';
        }
    }

    /** Stream mode: the next record, skipping empty lines and comment lines; false at the end of input. */
    boolean nextRecord() {
        while (true) {
            recordStart = pos;
            recordLine = newlines + 1;
            beginRecord();
            int c = read();
            if (c < 0) {
                return false;
            }
            ch = (char) c;
            if (commentSet && ch == comment) {
                skipLine();
                continue;
            }
            parseRecord();
            if (eof) {
                handleEof();
            }
            if (columns > 0) {
                return true;
            }
            if (eof) {
                return false;
            }
        }
    }

    private void skipLine() {
        while (ch != NL) {
            int c = read();
            if (c < 0) {
                return;
            }
            ch = (char) c;
        }
    }

    /** Stream mode: the 1-based line where the current record starts. */
    long recordLine() {
        return recordLine;
    }

    /** Stream mode: the raw text of the current record without its line ending (univocity's parsed content). */
    String rawRecord() {
        int end = pos;
        if (end > recordStart && buf[end - 1] == '\n') {
            end--;
            if (end > recordStart && buf[end - 1] == '\r') {
                end--;
            }
        } else if (end > recordStart && buf[end - 1] == '\r') {
            end--;
        }
        return new String(buf, recordStart, end - recordStart);
    }

    private boolean refill() {
        if (source == null || sourceEof) {
            return false;
        }
        if (recordStart > 0) {
            System.arraycopy(buf, recordStart, buf, 0, limit - recordStart);
            pos -= recordStart;
            limit -= recordStart;
            recordStart = 0;
        }
        if (limit == buf.length) {
            char[] bigger = new char[buf.length * 2];
            System.arraycopy(buf, 0, bigger, 0, limit);
            buf = bigger;
        }
        try {
            int r = source.read(buf, limit, buf.length - limit);
            if (r < 0) {
                sourceEof = true;
                return false;
            }
            limit += r;
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The next character, or -1 at the end of input; line separators become NL, a multi-char delimiter DELIM. */
    private int read() {
        if (pos >= limit && (!multiLine || !refill())) {
            return -1;
        }
        char c = buf[pos++];
        if (multiLine) {
            if (c == sep0) {
                if (sep1 == 0) {
                    newlines++;
                    return normalize ? NL : c;
                }
                if (normalize && (pos < limit || refill()) && buf[pos] == sep1) {
                    newlines++;
                    pos++;
                    return NL;
                }
                return c;
            }
            if (c == NL) {
                newlines++;
            }
        }
        if (multiDelim && c == delimChars[0]) {
            int n = delimChars.length;
            while (pos + n - 1 > limit && multiLine && refill()) {
                // read enough to compare the whole delimiter
            }
            if (pos + n - 1 <= limit) {
                int k = 1;
                while (k < n && buf[pos + k - 1] == delimChars[k]) {
                    k++;
                }
                if (k == n) {
                    pos += n - 1;
                    return DELIM;
                }
            }
        }
        return c;
    }

    /** Reads the next character into {@code ch}; false (and {@code eof} set, {@code ch} unchanged) at the end. */
    private boolean advance() {
        int c = read();
        if (c < 0) {
            eof = true;
            return false;
        }
        ch = (char) c;
        return true;
    }

    // ---------------------------------------------------------------------------------------------- tokens

    int columns() {
        return columns;
    }

    char[] tokenChars(int i) {
        return tokPooled[i] ? pool : buf;
    }

    int tokenStart(int i) {
        return tokStart[i];
    }

    /** The token's length, or -1 for a null token (an unquoted empty value). */
    int tokenLength(int i) {
        return tokLen[i];
    }

    String token(int i) {
        int len = tokLen[i];
        return len < 0 ? null : new String(tokenChars(i), tokStart[i], len);
    }

    String[] tokens() {
        String[] out = new String[columns];
        for (int i = 0; i < columns; i++) {
            out[i] = token(i);
        }
        return out;
    }

    private void beginRecord() {
        columns = 0;
        poolLen = 0;
        appLen = 0;
        eof = false;
        lastValueDone = false;
        skipped = false;
        ch = 0;
        prev = 0;
        unescaped = false;
        trim = false;
        normalize = true;
    }

    private void slot() {
        if (columns >= maxColumns) {
            throw new CsvSyntaxException("Number of columns processed may have exceeded limit of " + maxColumns
                    + " columns. Use the option maxColumns to define the maximum number of columns a record can have");
        }
        if (columns == tokStart.length) {
            int n = columns * 2;
            tokStart = java.util.Arrays.copyOf(tokStart, n);
            tokLen = java.util.Arrays.copyOf(tokLen, n);
            tokPooled = java.util.Arrays.copyOf(tokPooled, n);
        }
    }

    private void checkLength(int len) {
        if (maxChars != -1 && len > maxChars) {
            throw new CsvSyntaxException("Length of parsed input (" + len + ") exceeds the maximum number of "
                    + "characters defined in your parser settings (" + maxChars + "). Use the option "
                    + "maxCharsPerColumn to raise it");
        }
    }

    private void emptyParsed() {
        slot();
        tokLen[columns] = -1;
        tokPooled[columns] = false;
        tokStart[columns] = 0;
        columns++;
    }

    private void addPooled(char[] src, int start, int len) {
        slot();
        if (poolLen + len > pool.length) {
            pool = java.util.Arrays.copyOf(pool, Math.max(pool.length * 2, poolLen + len));
        }
        System.arraycopy(src, start, pool, poolLen, len);
        tokStart[columns] = poolLen;
        tokLen[columns] = len;
        tokPooled[columns] = true;
        poolLen += len;
        columns++;
    }

    private void addSlice(int start, int len) {
        if (multiLine) {
            // the buffer may move while the record is read: keep a copy
            addPooled(buf, start, len);
            return;
        }
        slot();
        tokStart[columns] = start;
        tokLen[columns] = len;
        tokPooled[columns] = false;
        columns++;
    }

    /** univocity's valueParsed(): the appender's content, trailing whitespace dropped when trimming. */
    private void valueParsed() {
        if (skipped) {
            // univocity's SKIP_VALUE swaps in a no-op appender, whose value is null
            skipped = false;
            appLen = 0;
            emptyParsed();
            return;
        }
        int n = appLen;
        if (trim) {
            while (n > 0 && app[n - 1] <= ' ') {
                n--;
            }
        }
        if (n == 0) {
            addPooled(emptyValue, 0, emptyValue.length);
        } else {
            addPooled(app, 0, n);
        }
        appLen = 0;
    }

    private void append(char c) {
        if (c == DELIM && multiDelim) {
            for (char d : delimChars) {
                append1(d);
            }
            return;
        }
        append1(c);
    }

    private void append1(char c) {
        if (appLen == app.length) {
            app = java.util.Arrays.copyOf(app, app.length * 2);
        }
        app[appLen++] = c;
        if (maxChars != -1 && appLen > maxChars) {
            checkLength(appLen);
        }
    }

    private void prepend(char c) {
        if (appLen == app.length) {
            app = java.util.Arrays.copyOf(app, app.length * 2);
        }
        System.arraycopy(app, 0, app, 1, appLen);
        app[0] = c;
        appLen++;
    }

    private static boolean isWs(char c) {
        return c <= ' ';
    }

    // ---------------------------------------------------------------------------------------------- records

    // univocity's loops below work on a copy of ch: at the end of input, ch keeps the value it had before.
    private void skipWhitespace() {
        char saved = ch;
        while (ch <= ' ' && ch != delimiter && ch != NL && ch != quote) {
            if (!advance()) {
                ch = saved;
                return;
            }
        }
    }

    private void parseRecord() {
        if (ignoreLeading && isWs(ch)) {
            skipWhitespace();
            if (eof) {
                return;
            }
        }
        while (ch != NL) {
            if (ignoreLeading && isWs(ch)) {
                skipWhitespace();
                if (eof) {
                    return;
                }
            }
            if (ch == delimiter || ch == NL) {
                emptyParsed();
            } else {
                unescaped = false;
                prev = '\0';
                if (ch == quote) {
                    normalize = normalizeInQuotes;
                    trim = false;
                    parseQuotedValue();
                    normalize = true;
                    if (eof) {
                        return;
                    }
                    if (!(unescaped && handling == CsvSettings.QuoteHandling.BACK_TO_DELIMITER && appLen == 0)) {
                        valueParsed();
                    }
                } else {
                    parseUnquotedValue();
                    if (eof) {
                        return;
                    }
                }
            }
            if (ch != NL) {
                if (!advance()) {
                    return;
                }
                if (ch == NL) {
                    emptyParsed();
                }
            }
        }
    }

    // univocity's getString fast path, then appendUntil(delimiter, newline).
    private void parseUnquotedValue() {
        if (!multiDelim && appLen == 0) {
            int start = pos - 1;
            int p = pos;
            int lim = limit;
            char d = delimiter;
            char[] b = buf;
            if (multiLine) {
                while (p < lim) {
                    char c = b[p];
                    if (c == d || c == NL) {
                        break;
                    }
                    if (c == sep0) {
                        if (sep1 == 0 || p + 1 < lim && b[p + 1] == sep1) {
                            break;
                        }
                        if (p + 1 >= lim) {
                            p = lim;
                            break;
                        }
                    }
                    p++;
                }
            } else {
                while (p < lim) {
                    char c = b[p];
                    if (c == d || c == NL) {
                        break;
                    }
                    p++;
                }
            }
            if (p < lim) {
                int len = p - start;
                checkLength(len);
                if (ignoreTrailing) {
                    while (len > 0 && b[start + len - 1] <= ' ') {
                        len--;
                    }
                }
                if (len <= 0) {
                    emptyParsed();
                } else {
                    addSlice(start, len);
                }
                pos = p;
                advance();
                return;
            }
            if (!multiLine) {
                // the value runs to the end of input: univocity appends it and takes it at EOF (appender rules)
                int len = lim - start;
                checkLength(len);
                int n = len;
                if (ignoreTrailing) {
                    while (n > 0 && b[start + n - 1] <= ' ') {
                        n--;
                    }
                }
                if (n == 0) {
                    addPooled(emptyValue, 0, emptyValue.length);
                } else {
                    addSlice(start, n);
                }
                pos = lim;
                eof = true;
                lastValueDone = true;
                return;
            }
        }
        trim = ignoreTrailing;
        appendUntilDelimiterOrNewline();
        if (eof) {
            return;
        }
        valueParsed();
    }

    private void appendUntilDelimiterOrNewline() {
        char saved = ch;
        while (ch != delimiter && ch != NL) {
            append(ch);
            if (!advance()) {
                ch = saved;
                return;
            }
        }
    }

    private void appendUntilQuoteOrEscape() {
        char saved = ch;
        while (ch != quote && ch != quoteEscape && ch != escapeEscape) {
            append(ch);
            if (!advance()) {
                ch = saved;
                return;
            }
        }
    }

    private void skipValue() {
        appLen = 0;
        skipped = true;
        char saved = ch;
        while (ch != delimiter && ch != NL) {
            if (!advance()) {
                ch = saved;
                return;
            }
        }
    }

    private void handleValueSkipping(boolean quoted) {
        if (handling == CsvSettings.QuoteHandling.SKIP_VALUE) {
            skipValue();
        } else if (handling == CsvSettings.QuoteHandling.RAISE_ERROR) {
            throw new CsvSyntaxException("Unescaped quote character '" + quote + "' inside "
                    + (quoted ? "quoted" : "") + " value of CSV field. To allow unescaped quotes, set "
                    + "'parseUnescapedQuotes' to 'true' in the CSV parser settings. Cannot parse CSV input.");
        }
    }

    private void handleUnescapedQuoteInValue() {
        switch (handling) {
            case BACK_TO_DELIMITER, STOP_AT_CLOSING_QUOTE, STOP_AT_DELIMITER -> {
                append(quote);
                prev = ch;
                parseValueProcessingEscape();
            }
            default -> handleValueSkipping(false);
        }
    }

    private boolean handleUnescapedQuote() {
        unescaped = true;
        switch (handling) {
            case BACK_TO_DELIMITER -> {
                int p;
                while ((p = nextDelimiterInAppender()) != -1) {
                    boolean newline = app[p] == NL;
                    addPooled(app, 0, p);
                    // a line separator in the accumulated text ends records univocity then holds as pending;
                    // Spark sees them as one record (rare): keep the tokens together
                    int skip = newline || !multiDelim ? 1 : delimChars.length;
                    System.arraycopy(app, p + skip, app, 0, appLen - p - skip);
                    appLen -= p + skip;
                }
                append(ch);
                prev = '\0';
                parseQuotedValue();
                return true;
            }
            case STOP_AT_CLOSING_QUOTE, STOP_AT_DELIMITER -> {
                append(quote);
                append(ch);
                prev = ch;
                parseQuotedValue();
                return true;
            }
            default -> {
                handleValueSkipping(true);
                return false;
            }
        }
    }

    private int nextDelimiterInAppender() {
        for (int i = 0; i < appLen; i++) {
            char c = app[i];
            if (c == NL) {
                return i;
            }
            if (!multiDelim && c == delimiter) {
                return i;
            }
            if (multiDelim && c == delimChars[0] && i + delimChars.length <= appLen) {
                int k = 1;
                while (k < delimChars.length && app[i + k] == delimChars[k]) {
                    k++;
                }
                if (k == delimChars.length) {
                    return i;
                }
            }
        }
        return -1;
    }

    private void processQuoteEscape() {
        if (ch == quoteEscape && prev == escapeEscape && escapeEscape != '\0') {
            append(quoteEscape);
            ch = '\0';
        } else if (prev == quoteEscape) {
            if (ch == quote) {
                append(quote);
                ch = '\0';
            } else {
                append(prev);
            }
        } else if (ch == quote && prev == quote) {
            append(quote);
        } else if (prev == quote) {
            handleUnescapedQuoteInValue();
        }
    }

    private void parseValueProcessingEscape() {
        while (ch != delimiter && ch != NL) {
            if (ch != quote && ch != quoteEscape) {
                if (prev == quote) {
                    handleUnescapedQuoteInValue();
                    return;
                }
                append(ch);
            } else {
                processQuoteEscape();
                if (eof) {
                    return;
                }
            }
            prev = ch;
            if (!advance()) {
                return;
            }
        }
    }

    private void parseQuotedValue() {
        if (prev != '\0' && untilDelimiter) {
            if (handling == CsvSettings.QuoteHandling.SKIP_VALUE) {
                skipValue();
                return;
            }
            prepend(quote);
            if (!advance()) {
                return;
            }
            trim = ignoreTrailing;
            appendUntilDelimiterOrNewline();
            return;
        }
        if (!advance()) {
            return;
        }
        while (true) {
            if (prev == quote && (ch <= ' ' || ch == delimiter || ch == NL)) {
                break;
            }
            if (ch != quote && ch != quoteEscape) {
                if (prev == quote) {
                    if (handleUnescapedQuote()) {
                        if (eof || handling != CsvSettings.QuoteHandling.SKIP_VALUE) {
                            return;
                        }
                        break;
                    }
                    return;
                }
                if (prev == quoteEscape && quoteEscape != '\0') {
                    append(quoteEscape);
                }
                appendUntilQuoteOrEscape();
                if (eof) {
                    return;
                }
                prev = ch;
                if (!advance()) {
                    return;
                }
            } else {
                processQuoteEscape();
                if (eof) {
                    return;
                }
                prev = ch;
                if (!advance()) {
                    return;
                }
                if (unescaped && (ch == delimiter || ch == NL)) {
                    return;
                }
            }
        }
        // whitespace after the closing quote is dropped; other content after it is kept when allowed
        if (ch != delimiter && ch != NL && ch <= ' ') {
            wsLen = 0;
            do {
                if (wsLen == ws.length) {
                    ws = java.util.Arrays.copyOf(ws, ws.length * 2);
                }
                ws[wsLen++] = ch;
                if (!advance()) {
                    return;
                }
                if (ch == NL) {
                    return;
                }
            } while (ch <= ' ' && ch != delimiter);
            if (ch != delimiter && parseUnescapedQuotes) {
                append(quote);
                for (int i = 0; i < wsLen; i++) {
                    append(ws[i]);
                }
                if (untilDelimiter || ch != quote && ch != quoteEscape) {
                    append(ch);
                }
                prev = ch;
                parseQuotedValue();
                if (eof) {
                    return;
                }
            }
        }
        if (ch != delimiter && ch != NL) {
            throw new CsvSyntaxException("Unexpected character '" + ch + "' following quoted value of CSV field. "
                    + "Expecting '" + new String(delimChars) + "'. Cannot parse CSV input.");
        }
    }

    // univocity's consumeValueOnEOF and AbstractParser.handleEOF.
    private void handleEof() {
        if (lastValueDone) {
            return;
        }
        boolean consume = false;
        if (ch == quote) {
            if (prev == quote) {
                consume = true;
            } else if (!unescaped) {
                append(quote);
            }
        }
        if (!consume) {
            consume = prev != '\0' && ch != delimiter && ch != NL && ch != comment;
        }
        boolean content = pos > recordStart;
        if (columns != 0 || consume) {
            if (appLen > 0 || consume) {
                valueParsed();
            } else if (content) {
                emptyParsed();
            }
        } else if (appLen > 0 || content) {
            if (appLen == 0) {
                emptyParsed();
            } else {
                valueParsed();
            }
        }
    }
}

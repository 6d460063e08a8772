package io.sluice.api.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads Spark's DDL for schemas ({@code "seq long, name string NOT NULL COMMENT 'who'"}) and for single types
 * ({@code "map<string, array<decimal(10,2)>>"}).
 *
 * <p>A small hand-written recursive-descent parser over a token list. The grammar, as Spark's
 * {@code singleTableSchema} and {@code singleDataType} rules read it:
 *
 * <pre>
 *   schema    := [ column ( ',' column )* ]                      (blank input is the empty schema)
 *   column    := name [':'] type [ NOT NULL ] [ COMMENT string+ ]
 *   name      := identifier | `backquoted`                        (`` inside backquotes is one `)
 *   type      := boolean | tinyint | byte | smallint | short | int | integer | bigint | long
 *              | float | real | double | string | binary | date | timestamp | timestamp_ltz
 *              | (decimal | dec | numeric) [ '(' p [ ',' s ] ')' ]
 *              | (varchar | char | character) '(' n ')'            (read as string, as Spark does in schemas)
 *              | array '&lt;' type '&gt;' | map '&lt;' type ',' type '&gt;'
 *              | struct '&lt;' [ column ( ',' column )* ] '&gt;'
 * </pre>
 *
 * Keywords and type names are case-insensitive; column names keep their case. Whitespace and SQL comments
 * ({@code -- line} and {@code /* block *}{@code /}) may appear between any two tokens.
 *
 * <p>Types nest at most {@link DataType#MAX_NESTING_DEPTH} levels ({@code array<}, {@code map<} and {@code struct<}
 * each open one): deeper input is refused with a clear error rather than exhausting the thread's stack.
 *
 * <p>Every error is a {@link SchemaParseException} whose message names the offending token and its position,
 * then repeats the input with a caret under that position.
 */
final class DdlParser {
    private DdlParser() {
    }

    /** Parses a schema; blank input gives the empty schema. */
    static StructType parseSchema(String ddl) {
        Objects.requireNonNull(ddl, "ddl");
        return new Parser(ddl, tokenize(ddl)).schema();
    }

    /**
     * Parses one data type. Like Spark's {@code DataType.fromDDL}, input that is not a type but reads as a
     * schema ({@code "a int, b string"}) is returned as that schema's {@link StructType}.
     */
    static DataType parseType(String ddl) {
        Objects.requireNonNull(ddl, "ddl");
        List<Token> tokens = tokenize(ddl);
        try {
            return new Parser(ddl, tokens).singleType();
        } catch (SchemaParseException typeError) {
            StructType schema;
            try {
                schema = new Parser(ddl, tokens).schema();
            } catch (SchemaParseException schemaError) {
                // Both readings failed: report the one that explains the input best. Reading "strng" as a
                // schema fails right after the column name "strng" (no type), which says nothing; reading
                // "a strng" as a schema fails on 'strng', which says everything. So the schema reading's error
                // wins only when it got past the first token and further than the type reading did.
                int firstTokenEnd = tokens.get(0).end;
                boolean schemaGotFurther = schemaError.position() > Math.max(typeError.position(), firstTokenEnd);
                throw schemaGotFurther ? schemaError : typeError;
            }
            if (schema.size() == 0) {
                throw typeError; // blank input is the empty schema, but it is not a type
            }
            return schema;
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Tokens

    private enum Kind {
        /** Letters, digits and underscores, not all digits: a name, a keyword or a type name. */
        WORD,
        /** A {@code `backquoted`} name; {@code value} holds the name without quotes, {@code ``} undoubled. */
        QUOTED_NAME,
        /** ASCII digits only. */
        NUMBER,
        /** A {@code 'string'} or {@code "string"} literal (only comments use them, and comments are dropped). */
        STRING,
        /** One character of punctuation, including characters the grammar has no use for. */
        SYMBOL,
        /** Something the tokenizer could not finish, such as an unclosed backquote; {@code value} says what. */
        BAD,
        EOF
    }

    /** One token: {@code start} and {@code end} are offsets into the input, {@code end} exclusive. */
    private record Token(Kind kind, String text, String value, int start, int end) {
        boolean isSymbol(char c) {
            return kind == Kind.SYMBOL && text.charAt(0) == c;
        }

        boolean isKeyword(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }
    }

    /**
     * Splits the input into tokens up front. Problems found here (an unclosed backquote, say) become a BAD token
     * rather than an exception, so that an earlier syntax error is still reported first, in input order.
     */
    private static List<Token> tokenize(String in) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = in.length();
        while (true) {
            i = skipSpaceAndComments(in, i, tokens);
            if (!tokens.isEmpty() && tokens.get(tokens.size() - 1).kind == Kind.BAD) {
                return tokens; // an unclosed block comment swallowed the rest of the input
            }
            if (i >= n) {
                tokens.add(new Token(Kind.EOF, "", "", n, n));
                return tokens;
            }
            char c = in.charAt(i);
            int start = i;
            if (c == '`') {
                StringBuilder name = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        tokens.add(new Token(Kind.BAD, in.substring(start), "unclosed backquote: a name that starts"
                                + " with ` must end with ` (write `` for a backquote inside the name)", start, n));
                        return tokens;
                    }
                    char d = in.charAt(i++);
                    if (d == '`') {
                        if (i < n && in.charAt(i) == '`') {
                            name.append('`'); // `` is an escaped backquote inside the name
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        name.append(d);
                    }
                }
                tokens.add(new Token(Kind.QUOTED_NAME, in.substring(start, i), name.toString(), start, i));
            } else if (c == '\'' || c == '"' || ((c == 'r' || c == 'R') && i + 1 < n
                    && (in.charAt(i + 1) == '\'' || in.charAt(i + 1) == '"'))) {
                // Spark's string literals: '...' and "..." with backslash escapes, and raw R'...' without them.
                boolean raw = c == 'r' || c == 'R';
                char quote = in.charAt(raw ? ++i : i);
                i++;
                while (i < n && in.charAt(i) != quote) {
                    i += !raw && in.charAt(i) == '\\' ? 2 : 1;
                }
                if (i >= n) {
                    tokens.add(new Token(Kind.BAD, in.substring(start), "unclosed string: a string that starts with "
                            + quote + " must end with " + quote, start, n));
                    return tokens;
                }
                i++;
                tokens.add(new Token(Kind.STRING, in.substring(start, i), in.substring(start, i), start, i));
            } else if (isWordChar(c)) {
                boolean digitsOnly = true;
                while (i < n && isWordChar(in.charAt(i))) {
                    char d = in.charAt(i++);
                    digitsOnly &= d >= '0' && d <= '9';
                }
                String text = in.substring(start, i);
                tokens.add(new Token(digitsOnly ? Kind.NUMBER : Kind.WORD, text, text, start, i));
            } else {
                i++;
                tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), String.valueOf(c), start, i));
            }
        }
    }

    /**
     * Word characters match the ones {@link StructField#toDDL()} leaves unquoted (any Unicode letter or digit,
     * and underscore), so every name it writes unquoted reads back.
     */
    private static boolean isWordChar(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    private static boolean isSpace(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c); // isSpaceChar adds no-break spaces
    }

    /** Skips whitespace, {@code -- line comments} and (nested, as in Spark) block comments. */
    private static int skipSpaceAndComments(String in, int i, List<Token> tokens) {
        int n = in.length();
        while (i < n) {
            char c = in.charAt(i);
            if (isSpace(c)) {
                i++;
            } else if (in.startsWith("--", i)) {
                while (i < n && in.charAt(i) != '\n') {
                    i++;
                }
            } else if (in.startsWith("/*", i)) {
                int start = i;
                int depth = 0;
                do {
                    if (in.startsWith("/*", i)) {
                        depth++;
                        i += 2;
                    } else if (in.startsWith("*/", i)) {
                        depth--;
                        i += 2;
                    } else {
                        i++;
                    }
                } while (depth > 0 && i < n);
                if (depth > 0) {
                    tokens.add(new Token(Kind.BAD, in.substring(start), "unclosed comment: /* must end with */",
                            start, n));
                    return n;
                }
            } else {
                break;
            }
        }
        return i;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Parser

    /** Atomic type names and their aliases, lower case. */
    private static final Map<String, AtomicType> ATOMIC = Map.ofEntries(
            Map.entry("boolean", AtomicType.BOOLEAN_TYPE),
            Map.entry("tinyint", AtomicType.BYTE_TYPE), Map.entry("byte", AtomicType.BYTE_TYPE),
            Map.entry("smallint", AtomicType.SHORT_TYPE), Map.entry("short", AtomicType.SHORT_TYPE),
            Map.entry("int", AtomicType.INT_TYPE), Map.entry("integer", AtomicType.INT_TYPE),
            Map.entry("bigint", AtomicType.LONG_TYPE), Map.entry("long", AtomicType.LONG_TYPE),
            Map.entry("float", AtomicType.FLOAT_TYPE), Map.entry("real", AtomicType.FLOAT_TYPE),
            Map.entry("double", AtomicType.DOUBLE_TYPE),
            Map.entry("string", AtomicType.STRING_TYPE),
            Map.entry("binary", AtomicType.BINARY_TYPE),
            Map.entry("date", AtomicType.DATE_TYPE),
            // Spark's TIMESTAMP is TIMESTAMP_LTZ (a point in time) unless configured otherwise.
            Map.entry("timestamp", AtomicType.TIMESTAMP_TYPE), Map.entry("timestamp_ltz", AtomicType.TIMESTAMP_TYPE));

    /** Types Spark has and Sluice does not: named in the error so the user is not told they misspelt them. */
    private static final Set<String> UNSUPPORTED = Set.of(
            "timestamp_ntz", "void", "variant", "interval", "time", "geography", "geometry");

    private static final String KNOWN_TYPES = "boolean, tinyint (byte), smallint (short), int (integer), "
            + "bigint (long), float (real), double, decimal(p,s) (dec, numeric), string, varchar(n), char(n), "
            + "binary, date, timestamp (timestamp_ltz), array<T>, map<K,V>, struct<name: T, ...>";

    private static final class Parser {
        private final String input;
        private final List<Token> tokens;
        private int pos;
        /** How many array/map/struct types enclose the type being read. */
        private int depth;

        Parser(String input, List<Token> tokens) {
            this.input = input;
            this.tokens = tokens;
        }

        StructType schema() {
            if (peek().kind == Kind.EOF) {
                return StructType.empty();
            }
            List<StructField> fields = new ArrayList<>();
            do {
                fields.add(column("a column name", null));
            } while (accept(','));
            return new StructType(fields); // column() made sure only the end of input can follow
        }

        DataType singleType() {
            DataType type = type();
            if (peek().kind != Kind.EOF) {
                throw expected(peek(), "end of input");
            }
            return type;
        }

        /**
         * One {@code name [:] type [NOT NULL] [COMMENT '...']}: a column of a schema ({@code open} null) or a
         * field inside the {@code struct<} whose {@code <} is {@code open}. Checks that what follows can end the
         * column, so that the error for "a int b string" can list everything that was possible there.
         */
        private StructField column(String nameWhat, Token open) {
            Token nameToken = peek();
            String name;
            if (nameToken.kind == Kind.WORD) {
                name = nameToken.text;
            } else if (nameToken.kind == Kind.QUOTED_NAME) {
                name = nameToken.value;
            } else {
                throw expected(nameToken, nameWhat);
            }
            pos++;
            accept(':');
            DataType type = type();
            boolean nullable = true;
            String options = "',', NOT NULL, COMMENT";
            if (peek().isKeyword("NOT")) {
                pos++;
                if (!peek().isKeyword("NULL")) {
                    throw expected(peek(), "NULL after NOT");
                }
                pos++;
                nullable = false;
                options = "',', COMMENT";
            }
            if (peek().isKeyword("COMMENT")) {
                pos++;
                if (peek().kind != Kind.STRING) {
                    throw expected(peek(), "a quoted string after COMMENT");
                }
                while (peek().kind == Kind.STRING) {
                    pos++; // adjacent literals concatenate in Spark; the comment is dropped either way
                }
                options = "','";
            }
            Token after = peek();
            boolean ends = open == null ? after.kind == Kind.EOF : after.isSymbol('>');
            if (!after.isSymbol(',') && !ends) {
                String end = open == null ? "end of input" : closing(open, '>');
                throw expected(after, options + " or " + end);
            }
            return new StructField(name, type, nullable);
        }

        private DataType type() {
            Token t = peek();
            if (t.kind != Kind.WORD) {
                throw expected(t, "a data type");
            }
            pos++;
            String name = t.text.toLowerCase(Locale.ROOT);
            AtomicType atomic = ATOMIC.get(name);
            if (atomic != null) {
                if (peek().isSymbol('(')) {
                    throw syntax(peek(), name + " takes no parameters but found '('");
                }
                return atomic;
            }
            if (name.equals("array") || name.equals("map") || name.equals("struct")) {
                if (depth >= DataType.MAX_NESTING_DEPTH) {
                    throw syntax(t, "types nest deeper than " + DataType.MAX_NESTING_DEPTH
                            + " levels, the most Sluice reads");
                }
                depth++;
                try {
                    return nested(name);
                } finally {
                    depth--;
                }
            }
            switch (name) {
                case "decimal", "dec", "numeric":
                    return decimal();
                case "varchar", "char", "character": {
                    // Spark keeps char/varchar lengths as metadata on a string column; Sluice has only string.
                    if (!peek().isSymbol('(')) {
                        throw syntax(peek(), name + " needs a length, as in " + name + "(10), but found "
                                + describe(peek()));
                    }
                    Token open = next();
                    number(expectKind(Kind.NUMBER, "a length"), "length");
                    close(open, ')');
                    return AtomicType.STRING_TYPE;
                }
                default:
                    if (UNSUPPORTED.contains(name)) {
                        throw error(t.start, "Unsupported data type '" + t.text + "' at " + where(t.start)
                                + ": Spark has it but Sluice does not; known types: " + KNOWN_TYPES);
                    }
                    throw error(t.start, "Unknown data type '" + t.text + "' at " + where(t.start)
                            + "; known types: " + KNOWN_TYPES);
            }
        }

        /** {@code array<..>}, {@code map<..>} or {@code struct<..>}, after the type name. */
        private DataType nested(String name) {
            switch (name) {
                case "array": {
                    Token open = openAngle(name, "array<int>");
                    DataType element = type();
                    close(open, '>');
                    return ArrayType.of(element);
                }
                case "map": {
                    Token open = openAngle(name, "map<string, int>");
                    DataType key = type();
                    if (!accept(',')) {
                        throw expected(peek(), "',' between the key and value types of map<");
                    }
                    DataType value = type();
                    close(open, '>');
                    return MapType.of(key, value);
                }
                case "struct": {
                    Token open = openAngle(name, "struct<a: int>");
                    List<StructField> fields = new ArrayList<>();
                    if (!peek().isSymbol('>')) { // struct<> is the empty struct
                        do {
                            fields.add(column("a field name", open));
                        } while (accept(','));
                    }
                    close(open, '>');
                    return new StructType(fields);
                }
                default:
                    throw new IllegalStateException(name); // type() calls this for the three names above only
            }
        }

        /** {@code decimal}, {@code decimal(p)} or {@code decimal(p, s)}, after the type name. */
        private DataType decimal() {
            if (!peek().isSymbol('(')) {
                return new DecimalType(10, 0); // Spark's USER_DEFAULT
            }
            Token open = next();
            Token precisionToken = expectKind(Kind.NUMBER, "a precision (a whole number)");
            int precision = number(precisionToken, "precision");
            Token scaleToken = null;
            int scale = 0;
            if (accept(',')) {
                scaleToken = expectKind(Kind.NUMBER, "a scale (a whole number)");
                scale = number(scaleToken, "scale");
            }
            close(open, ')');
            try {
                return new DecimalType(precision, scale);
            } catch (IllegalArgumentException e) {
                // DecimalType checks the precision first; point at whichever number it rejected.
                boolean precisionBad = precision < 1 || precision > DecimalType.MAX_PRECISION;
                int at = precisionBad || scaleToken == null ? precisionToken.start : scaleToken.start;
                throw error(at, "Invalid decimal type at " + where(at) + ": " + e.getMessage());
            }
        }

        private int number(Token t, String what) {
            try {
                return Integer.parseInt(t.text);
            } catch (NumberFormatException e) {
                throw syntax(t, what + " " + t.text + " is too large");
            }
        }

        private Token openAngle(String typeName, String example) {
            if (!peek().isSymbol('<')) {
                throw syntax(peek(), typeName + " needs '<', as in " + example + ", but found " + describe(peek()));
            }
            return next();
        }

        /** Expects the bracket that closes {@code open}, naming where {@code open} was when it is missing. */
        private void close(Token open, char closer) {
            if (!accept(closer)) {
                throw expected(peek(), closing(open, closer));
            }
        }

        private String closing(Token open, char closer) {
            return "'" + closer + "' to close the '" + open.text + "' at " + where(open.start);
        }

        private Token expectKind(Kind kind, String what) {
            if (peek().kind != kind) {
                throw expected(peek(), what);
            }
            return next();
        }

        private boolean accept(char symbol) {
            if (peek().isSymbol(symbol)) {
                pos++;
                return true;
            }
            return false;
        }

        private Token next() {
            Token t = peek();
            pos++;
            return t;
        }

        /** The current token; reaching a token the tokenizer could not finish is an error there. */
        private Token peek() {
            Token t = tokens.get(pos);
            if (t.kind == Kind.BAD) {
                throw syntax(t, t.value);
            }
            return t;
        }

        // -----------------------------------------------------------------------------------------------------
        // Errors

        private SchemaParseException expected(Token found, String what) {
            return syntax(found, "expected " + what + " but found " + describe(found));
        }

        private SchemaParseException syntax(Token at, String detail) {
            return error(at.start, "Syntax error at " + where(at.start) + ": " + detail);
        }

        private static String describe(Token t) {
            if (t.kind == Kind.EOF) {
                return "end of input";
            }
            String text = t.text.length() > 40 ? t.text.substring(0, 37) + "..." : t.text;
            return "'" + text + "'";
        }

        /** "position 12 (column 13)", or with the line for input of several lines. */
        private String where(int offset) {
            int lineStart = lineStart(offset);
            if (lineStart == 0 && input.indexOf('\n') < 0) {
                return "position " + offset + " (column " + (offset + 1) + ")";
            }
            int line = 1 + (int) input.substring(0, lineStart).chars().filter(c -> c == '\n').count();
            return "position " + offset + " (line " + line + ", column " + (offset - lineStart + 1) + ")";
        }

        private int lineStart(int offset) {
            return input.lastIndexOf('\n', offset - 1) + 1;
        }

        /**
         * The headline, then the input line holding {@code offset} and a caret under it. The caret line copies
         * the tabs of the input line so the caret stays aligned wherever the tab stops are.
         */
        private SchemaParseException error(int offset, String headline) {
            int lineStart = lineStart(offset);
            int lineEnd = input.indexOf('\n', offset);
            String line = input.substring(lineStart, lineEnd < 0 ? input.length() : lineEnd);
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            StringBuilder caret = new StringBuilder();
            for (int i = lineStart; i < offset; i++) {
                caret.append(input.charAt(i) == '\t' ? '\t' : ' ');
            }
            caret.append('^');
            return new SchemaParseException(headline + "\n" + line + "\n" + caret, offset);
        }
    }
}

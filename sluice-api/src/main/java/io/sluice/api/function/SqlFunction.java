package io.sluice.api.function;

import io.sluice.api.types.DataType;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A SQL function contributed by a module, callable by its {@link #name()} in SQL text ({@code selectExpr},
 * {@code where(String)}, {@code Functions.expr}) and through {@code Functions.callFunction(name, columns...)}, as a built-in function
 * is.
 *
 * <p>Functions are discovered with {@link java.util.ServiceLoader}: list the implementing class in
 * {@code META-INF/services/io.sluice.api.function.SqlFunction} (or register one with
 * {@code Sluice.registerFunction}). Each {@code Sluice} instance creates one instance with the public no-argument
 * constructor and shares it between all its frames and threads, so it must be stateless and thread-safe.
 *
 * <p>The engine calls {@link #bind} once per call site, when a transformation is analysed (before any query
 * starts), with the resolved argument types; the {@link Binding} it returns fixes the call's result type and
 * nullability and the {@link Evaluator} the reader threads run for every row. When every argument is constant the
 * engine evaluates the call once, at analysis, and uses the value (if that evaluation throws, the call is left to
 * run, and fail, per row).
 */
public interface SqlFunction {

    /**
     * The name SQL calls the function by, compared case-insensitively ({@code from_avro}). It may not be the name
     * of a built-in function (refused when the {@code Sluice} is built, or by {@code Sluice.registerFunction}), and
     * two classes on the class path may not share one (the {@code Sluice} build fails); a function registered in
     * code replaces one of its name found on the class path.
     */
    String name();

    /**
     * Checks a call and binds it. Every problem with the call (the number of arguments, a type, a value that must
     * be constant, a bad option) is an {@link IllegalArgumentException}: the engine reports its message as an
     * analysis error of that call (an {@code AnalysisException} with the call's position and a caret in SQL text),
     * so write it as the headline Spark would give, e.g. {@code Cannot resolve "f(a)" due to data type mismatch:
     * ...} (use {@link Call#sql()}).
     *
     * @throws IllegalArgumentException for a call this function cannot take
     */
    Binding bind(Call call);

    /**
     * One argument of a call, resolved. {@code type} is null for an untyped {@code NULL} literal (Spark's void
     * type; a function may take it as a null of any type). {@code constant}: the argument is a constant expression
     * (a literal, or built of literals only) and {@code value} is its value (null is SQL NULL); for a non-constant
     * argument {@code value} is null. {@code sql}: the argument as Spark names it in messages ({@code value},
     * {@code CAST(a AS BINARY)}). Values follow the Java classes of {@code docs/types.md}.
     */
    record Argument(DataType type, boolean nullable, boolean constant, Object value, String sql) {
        public Argument {
            Objects.requireNonNull(sql, "sql");
        }
    }

    /**
     * A call to bind: the function's name as written, its arguments in order (a {@code *} argument already
     * expanded to the columns it stands for), and the session time zone ({@code spark.sql.session.timeZone}).
     */
    record Call(String name, List<Argument> arguments, ZoneId sessionTimeZone) {
        public Call {
            Objects.requireNonNull(name, "name");
            arguments = Collections.unmodifiableList(new ArrayList<>(arguments));
            Objects.requireNonNull(sessionTimeZone, "sessionTimeZone");
        }

        /** The call as Spark names it in messages and output column names: {@code name(arg1, arg2)}. */
        public String sql() {
            StringBuilder b = new StringBuilder(name).append('(');
            for (int i = 0; i < arguments.size(); i++) {
                b.append(i == 0 ? "" : ", ").append(arguments.get(i).sql());
            }
            return b.append(')').toString();
        }
    }

    /**
     * A bound call: the type of its result, whether the result may be null, and how it is computed. The engine
     * names the result column {@link Call#sql()}, as Spark does.
     */
    record Binding(DataType resultType, boolean nullable, Evaluator evaluator) {
        public Binding {
            Objects.requireNonNull(resultType, "resultType");
            Objects.requireNonNull(evaluator, "evaluator");
        }
    }

    /**
     * Computes one call's value from its arguments' values. Called by every reader thread at once, so it must be
     * thread-safe.
     */
    @FunctionalInterface
    interface Evaluator {
        /**
         * The value for one row ({@code null} for SQL NULL), of the bound result type, with the Java classes of
         * {@code docs/types.md}. {@code arguments} holds the arguments' values in order (a new array per row), nulls included: the engine
         * does not skip the call for a null argument. A runtime exception fails the query (or the read), with its
         * message, as a malformed record in FAILFAST mode does.
         */
        Object evaluate(Object[] arguments);
    }
}

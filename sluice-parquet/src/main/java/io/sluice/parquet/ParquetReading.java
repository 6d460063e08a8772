package io.sluice.parquet;

import io.sluice.api.Row;
import io.sluice.api.types.ArrayType;
import io.sluice.api.types.AtomicType;
import io.sluice.api.types.DataType;
import io.sluice.api.types.DecimalType;
import io.sluice.api.types.MapType;
import io.sluice.api.types.StructField;
import io.sluice.api.types.StructType;
import io.sluice.files.format.FileFormatReader;
import io.sluice.files.format.RowIterator;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads Parquet files into rows of the source's data schema. Only the schema's columns are decoded: the
 * requested projection is the file's schema cut down to them (nested struct fields too), so other columns' pages
 * are never read. Columns are matched by name (exactly, else ignoring case, as Spark does by default); a column
 * missing from a file reads as null. A Parquet type the schema's type cannot hold fails with Spark's
 * {@code FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH}, a file whose footer cannot be read with
 * {@code FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER}, both naming the file (the file source's
 * {@code ignoreCorruptFiles} skips such files). Thread-safe: one {@link #open} per file and thread.
 */
final class ParquetReading implements FileFormatReader {
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private final StructType schema;
    /** The read's filters on the schema's columns: row groups they rule out are not read ({@link ParquetFilters}). */
    private final List<io.sluice.api.source.ColumnFilter> filters;
    private final java.util.concurrent.atomic.LongAdder rowGroupsRead = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder rowGroupsSkipped =
            new java.util.concurrent.atomic.LongAdder();

    private final CalendarRebase.Configured configured;

    ParquetReading(StructType schema, CalendarRebase.Configured configured) {
        this(schema, configured, List.of());
    }

    ParquetReading(StructType schema, CalendarRebase.Configured configured,
                   List<io.sluice.api.source.ColumnFilter> filters) {
        this.schema = schema;
        this.configured = configured;
        this.filters = List.copyOf(filters);
    }

    /** The file being read and its calendar rebase (from its footer). */
    record In(Path path, CalendarRebase rebase) {
    }

    /** {@code numRowGroupsRead} and {@code numRowGroupsSkipped} (by the filters) of every file opened so far. */
    @Override
    public Map<String, Long> metrics() {
        return Map.of("numRowGroupsRead", rowGroupsRead.sum(), "numRowGroupsSkipped", rowGroupsSkipped.sum());
    }

    /** The indexes of the file's row groups to read: those the filters do not rule out, in file order. */
    private int[] rowGroups(ParquetFileReader reader, MessageType fileSchema) {
        List<org.apache.parquet.hadoop.metadata.BlockMetaData> all = reader.getFooter().getBlocks();
        int[] keep;
        ParquetFilters.FilePredicate p = filters.isEmpty() ? ParquetFilters.FilePredicate.NONE
                : ParquetFilters.of(fileSchema, schema, filters);
        if (p.matchesNothing()) {
            keep = new int[0];
        } else if (p.predicate() == null) {
            keep = java.util.stream.IntStream.range(0, all.size()).toArray();
        } else {
            java.util.Set<org.apache.parquet.hadoop.metadata.BlockMetaData> kept = java.util.Collections.newSetFromMap(
                    new java.util.IdentityHashMap<>());
            kept.addAll(org.apache.parquet.filter2.compat.RowGroupFilter.filterRowGroups(List.of(
                    org.apache.parquet.filter2.compat.RowGroupFilter.FilterLevel.STATISTICS,
                    org.apache.parquet.filter2.compat.RowGroupFilter.FilterLevel.DICTIONARY,
                    org.apache.parquet.filter2.compat.RowGroupFilter.FilterLevel.BLOOMFILTER),
                    org.apache.parquet.filter2.compat.FilterCompat.get(p.predicate()), all, reader));
            keep = java.util.stream.IntStream.range(0, all.size()).filter(i -> kept.contains(all.get(i))).toArray();
        }
        rowGroupsRead.add(keep.length);
        rowGroupsSkipped.add(all.size() - keep.length);
        return keep;
    }

    @Override
    public RowIterator open(Path file) throws IOException {
        ParquetReadOptions options = org.apache.parquet.SluiceReadOptions.of(ParquetCodecs.INSTANCE);
        // Opening a FIFO would block in a system call no interrupt ends (the listing skips special files; this
        // catches one that replaced a listed file), as the other formats refuse them.
        if (!ObjectInputFile.isObject(file) && !java.nio.file.Files.readAttributes(file,
                java.nio.file.attribute.BasicFileAttributes.class).isRegularFile()) {
            throw new IOException("Cannot read " + file + ": it is not a regular file (a FIFO, socket, device or "
                    + "directory), so it is not data; reading a FIFO could block forever");
        }
        ParquetFileReader reader;
        try {
            reader = ParquetFileReader.open(ObjectInputFile.of(file), options);
        } catch (IOException | RuntimeException e) {
            if (e instanceof java.nio.file.NoSuchFileException || e instanceof java.io.FileNotFoundException
                    || e instanceof io.sluice.api.io.VersionChangedException) {
                throw e;
            }
            throw footerError(file, e);
        }
        try {
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            CalendarRebase rebase = configured.forFile(reader.getFooter().getFileMetaData().getKeyValueMetaData());
            RootConverter root = new RootConverter(new In(file, rebase), fileSchema, schema);
            reader.setRequestedSchema(root.requested);
            MessageColumnIO io = new ColumnIOFactory().getColumnIO(root.requested, fileSchema, true);
            return new Rows(file, reader, io, root, rowGroups(reader, fileSchema));
        } catch (IOException | RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    /** Spark's error for a file whose footer cannot be read, naming the file, with parquet-java's reason. */
    static IOException footerError(Path file, Exception e) {
        return new IOException("[FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER] Encountered error while reading file "
                + file.toUri() + ". Could not read footer. Please ensure that the file is in either ORC or "
                + "Parquet format. If not, please convert it to a valid format. If the file is in the valid "
                + "format, please check if it is corrupt. If it is, you can choose to either ignore it or fix "
                + "the corruption. SQLSTATE: KD001 (" + e.getMessage() + ")", e);
    }

    private static final class Rows implements RowIterator {
        private final Path path;
        private final ParquetFileReader reader;
        private final MessageColumnIO io;
        private final RootConverter root;
        /** The row groups to read, by index in the file; the next one is {@code groups[group]}. */
        private final int[] groups;
        private int group;
        private RecordReader<Row> records;
        /** The column-by-column reader of a flat file, or null; used for the row groups read whole. */
        private final FlatColumns flat;
        private boolean byColumns;
        private long left;
        private Row current;

        Rows(Path path, ParquetFileReader reader, MessageColumnIO io, RootConverter root, int[] groups) {
            this.path = path;
            this.reader = reader;
            this.io = io;
            this.root = root;
            this.groups = groups;
            this.flat = root.struct instanceof BuilderRowConverter b
                    ? FlatColumns.of(b, root.requested, reader.getFooter()) : null;
        }

        @Override
        public boolean next() throws IOException {
            try {
                while (left == 0) {
                    PageReadStore pages = group < groups.length ? reader.readRowGroup(groups[group++]) : null;
                    if (pages == null) {
                        return false;
                    }
                    left = pages.getRowCount();
                    // Row ranges (a column-index filter) need parquet-java's synchronised readers. A record-level
                    // filter, if one is ever added, must go through the record reader too: FlatColumns applies none.
                    byColumns = flat != null && pages.getRowIndexes().isEmpty();
                    if (byColumns) {
                        flat.start(pages);
                    } else {
                        records = io.getRecordReader(pages, root);
                    }
                }
                left--;
                current = byColumns ? flat.next() : records.read();
                return true;
            } catch (java.io.InterruptedIOException | java.nio.channels.ClosedByInterruptException e) {
                throw e;
            } catch (java.io.UncheckedIOException e) {
                throw e; // a rebase under EXCEPTION: Spark's own error, not wrapped
            } catch (IOException | RuntimeException e) {
                // A damaged page, a row group past the end of a truncated file: Spark's FileScanRDD wraps any
                // such error as FAILED_READ_FILE.NO_HINT naming the file.
                throw new IOException("[FAILED_READ_FILE.NO_HINT] Encountered error while reading file "
                        + path.toUri() + ".  SQLSTATE: KD001 (" + reason(e) + ")", e);
            }
        }

        private static String reason(Throwable e) {
            // parquet-java's own message names the file already; the root cause says what was wrong.
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return root == e ? m : m + ": " + (root.getMessage() == null ? root.getClass().getSimpleName()
                    : root.getClass().getSimpleName() + ": " + root.getMessage());
        }

        @Override
        public Row get() {
            return current;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }

    /** The element type of a LIST group, with Parquet's backward-compatibility rules for 2-level lists. */
    static Type listElement(GroupType list) {
        Type repeated = list.getType(0);
        if (repeated.isPrimitive() || repeated.asGroupType().getFieldCount() > 1
                || repeated.getName().equals("array") || repeated.getName().equals(list.getName() + "_tuple")) {
            return repeated; // 2-level: the repeated field is the element
        }
        return repeated.asGroupType().getType(0);
    }

    /** A file's field for a schema field: by exact name, else ignoring case. */
    static int find(GroupType g, String name) {
        if (g.containsField(name)) {
            return g.getFieldIndex(name);
        }
        for (int i = 0; i < g.getFieldCount(); i++) {
            if (g.getType(i).getName().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return i;
            }
        }
        return -1;
    }

    /** The file's group cut down to the fields of {@code struct} it has, or null when it has none. */
    private static GroupType prune(In file, GroupType g, StructType struct, String path) {
        List<Type> kept = new ArrayList<>();
        for (StructField f : struct.fields()) {
            int i = find(g, f.name());
            if (i >= 0) {
                Type pruned = prune(file, g.getType(i), f.dataType(), path.isEmpty() ? g.getType(i).getName()
                        : path + ", " + g.getType(i).getName());
                if (pruned != null) {
                    kept.add(pruned);
                }
            }
        }
        return kept.isEmpty() ? null : g.withNewFields(kept);
    }

    private static Type prune(In file, Type t, DataType target, String path) {
        if (target instanceof StructType s && !t.isPrimitive()
                && t.getLogicalTypeAnnotation() == null && !t.isRepetition(Repetition.REPEATED)) {
            return prune(file, t.asGroupType(), s, path);
        }
        return t; // arrays and maps are read whole
    }

    private static IOException mismatch(In file, String path, DataType expected, PrimitiveType actual) {
        return new IOException("[FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH] Encountered error while "
                + "reading file " + file.path().toUri() + ". Data type mismatches when reading Parquet column ["
                + path
                + "]. Expected Spark type " + expected.simpleString() + ", actual Parquet type "
                + actual.getPrimitiveTypeName() + ". SQLSTATE: KD001");
    }

    /** The record materializer: rows of the data schema, columns the file lacks null. */
    private static final class RootConverter extends RecordMaterializer<Row> {
        final MessageType requested;
        final GroupConverter struct;
        private Row row;

        RootConverter(In file, MessageType fileSchema, StructType schema) throws IOException {
            GroupType pruned = prune(file, fileSchema, schema, "");
            this.requested = pruned == null ? new MessageType(fileSchema.getName())
                    : new MessageType(fileSchema.getName(), pruned.getFields());
            // Flat records (the common case) are built with a RowBuilder; the Object[] path for the rest, and for a
            // file that needs a calendar rebase (the RowBuilder path and FlatColumns decode dates and timestamps
            // themselves, without it).
            GroupConverter built = file.rebase().isIdentity()
                    ? BuilderRowConverter.of(file, requested, schema, r -> row = r) : null;
            this.struct = built != null ? built : new StructConverter(file, requested, schema, "", r -> row = r);
        }

        @Override
        public Row getCurrentRecord() {
            return row;
        }

        @Override
        public GroupConverter getRootConverter() {
            return struct;
        }
    }

    private static final class StructConverter extends GroupConverter {
        private final Converter[] children;
        private final int[] target;
        private final boolean[] repeatedList;
        private final int width;
        private final Consumer<Row> out;
        private Object[] values;

        StructConverter(In file, GroupType g, StructType struct, String path, Consumer<Row> out)
                throws IOException {
            this.width = struct.size();
            this.out = out;
            this.children = new Converter[g.getFieldCount()];
            this.target = new int[g.getFieldCount()];
            this.repeatedList = new boolean[g.getFieldCount()];
            for (int i = 0; i < g.getFieldCount(); i++) {
                Type t = g.getType(i);
                int idx = targetIndex(struct, t.getName());
                target[i] = idx;
                int slot = idx;
                String p = path.isEmpty() ? t.getName() : path + ", " + t.getName();
                DataType type = struct.field(idx).dataType();
                if (t.isRepetition(Repetition.REPEATED)) {
                    // A repeated field outside a LIST: each occurrence is one element.
                    if (!(type instanceof ArrayType a)) {
                        throw new IOException("[FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH] Encountered "
                                + "error while reading file " + file.path().toUri() + ". Data type mismatches "
                                + "when reading "
                                + "Parquet column [" + p + "]. Expected Spark type " + type.simpleString()
                                + ", actual Parquet type repeated " + t + ". SQLSTATE: KD001");
                    }
                    repeatedList[i] = true;
                    children[i] = converter(file, t, a.elementType(), p, v -> append(slot, v));
                } else {
                    children[i] = converter(file, t, type, p, v -> values[slot] = v);
                }
            }
        }

        @SuppressWarnings("unchecked")
        private void append(int slot, Object v) {
            if (values[slot] == null) {
                values[slot] = new ArrayList<>();
            }
            ((List<Object>) values[slot]).add(v);
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            values = new Object[width];
        }

        @Override
        public void end() {
            for (int i = 0; i < repeatedList.length; i++) {
                if (repeatedList[i] && values[target[i]] == null) {
                    values[target[i]] = List.of();
                }
            }
            out.accept(Row.wrap(values));
        }
    }

    /** The index of the schema field a (pruned) file field was matched to: by exact name, else ignoring case. */
    static int targetIndex(StructType struct, String name) {
        int idx = struct.indexOf(name);
        if (idx < 0) {
            for (int j = 0; j < struct.size(); j++) {
                if (struct.field(j).name().equalsIgnoreCase(name)) {
                    idx = j;
                }
            }
        }
        return idx;
    }

    static Converter converter(In file, Type t, DataType target, String path, Consumer<Object> out)
            throws IOException {
        LogicalTypeAnnotation l = t.getLogicalTypeAnnotation();
        if (!t.isPrimitive()) {
            GroupType g = t.asGroupType();
            if (target instanceof ArrayType a && l instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
                return new ListConverter(file, g, a, path, out);
            }
            if (target instanceof MapType m && (l instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                    || l instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation)) {
                return new MapConverter(file, g, m, path, out);
            }
            if (target instanceof StructType s && l == null) {
                return new StructConverter(file, g, s, path, out::accept);
            }
            throw new IOException("[FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH] Encountered error while "
                    + "reading file " + file.path().toUri() + ". Data type mismatches when reading Parquet column ["
                    + path + "]. Expected Spark type " + target.simpleString() + ", actual Parquet type " + t
                    + ". SQLSTATE: KD001");
        }
        return primitive(file, t.asPrimitiveType(), target, path, out);
    }

    private static final class ListConverter extends GroupConverter {
        private final Converter repeated;
        private final Consumer<Object> out;
        private List<Object> list;

        ListConverter(In file, GroupType g, ArrayType a, String path, Consumer<Object> out) throws IOException {
            this.out = out;
            Type element = listElement(g);
            Type rep = g.getType(0);
            if (element == rep) {
                this.repeated = converter(file, rep.isPrimitive() ? rep : rep.asGroupType().withNewFields(
                        rep.asGroupType().getFields()), a.elementType(), path + ", " + rep.getName(),
                        v -> list.add(v));
            } else {
                Converter elem = converter(file, element, a.elementType(), path + ", " + rep.getName() + ", "
                        + element.getName(), v -> pending[0] = v);
                this.repeated = new GroupConverter() {
                    @Override
                    public Converter getConverter(int fieldIndex) {
                        return elem;
                    }

                    @Override
                    public void start() {
                        pending[0] = null;
                    }

                    @Override
                    public void end() {
                        list.add(pending[0]);
                    }
                };
            }
        }

        private final Object[] pending = new Object[1];

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            list = new ArrayList<>();
        }

        @Override
        public void end() {
            out.accept(list);
        }
    }

    private static final class MapConverter extends GroupConverter {
        private final GroupConverter entry;
        private final Consumer<Object> out;
        private final Object[] kv = new Object[2];
        private Map<Object, Object> map;

        MapConverter(In file, GroupType g, MapType m, String path, Consumer<Object> out) throws IOException {
            this.out = out;
            GroupType e = g.getType(0).asGroupType();
            String p = path + ", " + e.getName() + ", ";
            Converter key = converter(file, e.getType(0), m.keyType(), p + e.getType(0).getName(), v -> kv[0] = v);
            Converter value = e.getFieldCount() < 2 ? null
                    : converter(file, e.getType(1), m.valueType(), p + e.getType(1).getName(), v -> kv[1] = v);
            this.entry = new GroupConverter() {
                @Override
                public Converter getConverter(int fieldIndex) {
                    return fieldIndex == 0 ? key : value;
                }

                @Override
                public void start() {
                    kv[0] = null;
                    kv[1] = null;
                }

                @Override
                public void end() {
                    map.put(kv[0], kv[1]);
                }
            };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return entry;
        }

        @Override
        public void start() {
            map = new LinkedHashMap<>();
        }

        @Override
        public void end() {
            out.accept(map);
        }
    }

    /** A converter of one primitive column into the target type, or Spark's mismatch error. */
    private static Converter primitive(In file, PrimitiveType p, DataType target, String path,
                                       Consumer<Object> out) throws IOException {
        LogicalTypeAnnotation l = p.getLogicalTypeAnnotation();
        PrimitiveTypeName name = p.getPrimitiveTypeName();
        if (l instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            if (target instanceof DecimalType t && t.scale() >= d.getScale()
                    && t.precision() - t.scale() >= d.getPrecision() - d.getScale()) {
                int scale = d.getScale();
                int targetScale = t.scale();
                return new PrimitiveConverter() {
                    private void put(BigInteger unscaled) {
                        out.accept(new BigDecimal(unscaled, scale).setScale(targetScale));
                    }

                    @Override
                    public void addInt(int v) {
                        out.accept(BigDecimal.valueOf(v, scale).setScale(targetScale));
                    }

                    @Override
                    public void addLong(long v) {
                        out.accept(BigDecimal.valueOf(v, scale).setScale(targetScale));
                    }

                    @Override
                    public void addBinary(Binary v) {
                        put(new BigInteger(v.getBytes()));
                    }
                };
            }
            throw mismatch(file, path, target, p);
        }
        switch (name) {
            case BOOLEAN:
                if (target == AtomicType.BOOLEAN_TYPE) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addBoolean(boolean v) {
                            out.accept(v);
                        }
                    };
                }
                break;
            case INT32:
                if (l instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    if (target == AtomicType.DATE_TYPE) {
                        CalendarRebase rebase = file.rebase();
                        return new PrimitiveConverter() {
                            @Override
                            public void addInt(int v) {
                                out.accept(LocalDate.ofEpochDay(rebase.readDays(v)));
                            }
                        };
                    }
                    break;
                }
                if (l != null && !(l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)) {
                    break;
                }
                boolean unsigned = l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && !i.isSigned();
                if (target instanceof DecimalType t && t.precision() - t.scale() >= 10) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addInt(int v) {
                            out.accept(BigDecimal.valueOf(unsigned ? Integer.toUnsignedLong(v) : v)
                                    .setScale(t.scale()));
                        }
                    };
                }
                if (target instanceof AtomicType a) {
                    switch (a) {
                        case BYTE_TYPE, SHORT_TYPE, INT_TYPE, LONG_TYPE, DOUBLE_TYPE -> {
                            return new PrimitiveConverter() {
                                @Override
                                public void addInt(int v) {
                                    long x = unsigned ? Integer.toUnsignedLong(v) : v;
                                    out.accept(switch (a) {
                                        case BYTE_TYPE -> (byte) x;
                                        case SHORT_TYPE -> (short) x;
                                        case INT_TYPE -> (int) x;
                                        case LONG_TYPE -> x;
                                        default -> (double) x;
                                    });
                                }
                            };
                        }
                        default -> { }
                    }
                }
                break;
            case INT64:
                if (l instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts) {
                    if (target == AtomicType.TIMESTAMP_TYPE && ts.getUnit() != LogicalTypeAnnotation.TimeUnit.NANOS) {
                        boolean millis = ts.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS;
                        CalendarRebase rebase = file.rebase();
                        return new PrimitiveConverter() {
                            @Override
                            public void addLong(long v) {
                                long micros = rebase.readMicros(millis ? Math.multiplyExact(v, 1000L) : v, false);
                                out.accept(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                                        Math.floorMod(micros, 1_000_000L) * 1000));
                            }
                        };
                    }
                    break;
                }
                if (l != null && !(l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned())) {
                    break;
                }
                if (target == AtomicType.LONG_TYPE) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addLong(long v) {
                            out.accept(v);
                        }
                    };
                }
                if (target instanceof DecimalType t && t.precision() - t.scale() >= 20) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addLong(long v) {
                            out.accept(BigDecimal.valueOf(v).setScale(t.scale()));
                        }
                    };
                }
                break;
            case INT96:
                if (target == AtomicType.TIMESTAMP_TYPE) {
                    CalendarRebase rebase = file.rebase();
                    if (rebase.int96() == CalendarRebase.Mode.CORRECTED) {
                        return new PrimitiveConverter() {
                            @Override
                            public void addBinary(Binary v) {
                                out.accept(ParquetRowWriter.fromInt96(v.getBytes()));
                            }
                        };
                    }
                    return new PrimitiveConverter() {
                        @Override
                        public void addBinary(Binary v) {
                            Instant i = ParquetRowWriter.fromInt96(v.getBytes());
                            long micros = Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L),
                                    i.getNano() / 1000);
                            long m = rebase.readMicros(micros, true);
                            out.accept(Instant.ofEpochSecond(Math.floorDiv(m, 1_000_000L),
                                    Math.floorMod(m, 1_000_000L) * 1000));
                        }
                    };
                }
                break;
            case FLOAT:
                if (target == AtomicType.FLOAT_TYPE || target == AtomicType.DOUBLE_TYPE) {
                    boolean wide = target == AtomicType.DOUBLE_TYPE;
                    return new PrimitiveConverter() {
                        @Override
                        public void addFloat(float v) {
                            out.accept(wide ? (Object) (double) v : (Object) v);
                        }
                    };
                }
                break;
            case DOUBLE:
                if (target == AtomicType.DOUBLE_TYPE) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addDouble(double v) {
                            out.accept(v);
                        }
                    };
                }
                break;
            case BINARY:
            case FIXED_LEN_BYTE_ARRAY:
                boolean text = l instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        || l instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                        || l instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
                if (l != null && !text && !(l instanceof LogicalTypeAnnotation.BsonLogicalTypeAnnotation)) {
                    break;
                }
                if (target == AtomicType.STRING_TYPE && name == PrimitiveTypeName.BINARY) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addBinary(Binary v) {
                            out.accept(new String(v.getBytes(), StandardCharsets.UTF_8));
                        }
                    };
                }
                if (target == AtomicType.BINARY_TYPE) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addBinary(Binary v) {
                            out.accept(v.getBytes());
                        }
                    };
                }
                break;
            default:
                break;
        }
        throw mismatch(file, path, target, p);
    }
}

package io.sluice.parquet;

import io.sluice.api.Row;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the row groups of a flat file (every requested field a primitive, none repeated) column by column, the
 * way Spark's vectorized reader does, instead of through parquet-java's record assembly: per row, each column's
 * definition level and value go straight to that column's converter of {@link BuilderRowConverter}, and the row is
 * built. Plain INT32, INT64, INT96, FLOAT, DOUBLE and BINARY values are decoded here from the page's bytes (no
 * {@code Binary} or buffer slice per value); dictionary ids, levels and any other encoding go through parquet-java's
 * own readers, so the values are those of the record path. Used only for files whose column chunks use the
 * encodings Spark's and Sluice's writers produce (PLAIN, PLAIN_DICTIONARY, RLE_DICTIONARY, RLE, BIT_PACKED: see
 * {@link #handles}) and row groups read whole (no row ranges of a column-index filter).
 */
final class FlatColumns {
    static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final Set<Encoding> ENCODINGS = EnumSet.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY,
            Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED);

    private final BuilderRowConverter rows;
    private final Column[] columns;

    private FlatColumns(BuilderRowConverter rows, PrimitiveConverter[] converters, List<ColumnDescriptor> descs) {
        this.rows = rows;
        this.columns = new Column[descs.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = new Column(descs.get(i), converters[i]);
        }
    }

    /** The reader of {@code requested}'s columns into {@code rows}, or null when the file is not one it reads. */
    static FlatColumns of(BuilderRowConverter rows, MessageType requested, ParquetMetadata footer) {
        PrimitiveConverter[] converters = rows.primitives();
        List<ColumnDescriptor> descs = requested.getColumns();
        if (converters == null || converters.length != descs.size() || !handles(footer)) {
            return null;
        }
        for (ColumnDescriptor d : descs) {
            if (d.getPath().length != 1 || d.getMaxRepetitionLevel() != 0 || d.getMaxDefinitionLevel() > 1) {
                return null;
            }
        }
        return new FlatColumns(rows, converters, descs);
    }

    /** Whether every column chunk of the file uses only the encodings decoded here. */
    static boolean handles(ParquetMetadata footer) {
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData c : block.getColumns()) {
                if (!ENCODINGS.containsAll(c.getEncodings())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Starts a row group. */
    void start(PageReadStore pages) {
        for (Column c : columns) {
            c.start(pages.getPageReader(c.desc));
        }
    }

    /** The next row of the row group (the caller counts its rows). */
    Row next() {
        for (Column c : columns) {
            c.read();
        }
        return rows.build();
    }

    private static final class Column {
        final ColumnDescriptor desc;
        private final PrimitiveConverter out;
        private final BuilderRowConverter.StringColumn string;
        private final BuilderRowConverter.Int96Column int96;
        private final PrimitiveTypeName type;
        private final boolean optional;
        private PageReader pages;
        private Dictionary dictionary;
        /** Values left in the current page (nulls included). */
        private int left;
        /** The page's definition levels: a V1 page's reader, or a V2 page's decoder. */
        private ValuesReader levelsV1;
        private RunLengthBitPackingHybridDecoder levelsV2;
        /** The page's values: dictionary ids or another encoding through parquet-java, or plain bytes here. */
        private ValuesReader values;
        private boolean dictionaryIds;
        private byte[] buf;
        private int pos;
        /** The end of the page's values in {@link #buf}. */
        private int end;

        Column(ColumnDescriptor desc, PrimitiveConverter out) {
            this.desc = desc;
            this.out = out;
            this.string = out instanceof BuilderRowConverter.StringColumn s ? s : null;
            this.int96 = out instanceof BuilderRowConverter.Int96Column i ? i : null;
            this.type = desc.getPrimitiveType().getPrimitiveTypeName();
            this.optional = desc.getMaxDefinitionLevel() > 0;
        }

        void start(PageReader reader) {
            this.pages = reader;
            this.left = 0;
            this.dictionary = null;
            DictionaryPage dp = reader.readDictionaryPage();
            if (dp != null) {
                try {
                    dictionary = dp.getEncoding().initDictionary(desc, dp);
                } catch (IOException e) {
                    throw new ParquetDecodingException("could not decode the dictionary for " + desc, e);
                }
                if (out.hasDictionarySupport()) {
                    out.setDictionary(dictionary);
                }
            }
        }

        void read() {
            if (left == 0) {
                nextPage();
            }
            left--;
            if (optional) {
                int level;
                try {
                    level = levelsV1 != null ? levelsV1.readInteger() : levelsV2.readInt();
                } catch (IOException e) {
                    throw new ParquetDecodingException("could not read levels in page for col " + desc, e);
                }
                if (level == 0) {
                    return; // null: the builder's value stays null
                }
            }
            if (buf != null) {
                plain();
            } else if (dictionaryIds) {
                fromDictionary(values.readValueDictionaryId());
            } else {
                other();
            }
        }

        private void plain() {
            byte[] b = buf;
            int p = pos;
            int width = switch (type) {
                case INT32, FLOAT, BINARY -> 4;
                case INT96 -> 12;
                default -> 8;
            };
            if (p + width > end) {
                throw beyondPage(width);
            }
            switch (type) {
                case INT32 -> {
                    out.addInt((int) INT_LE.get(b, p));
                    pos = p + 4;
                }
                case INT64 -> {
                    out.addLong((long) LONG_LE.get(b, p));
                    pos = p + 8;
                }
                case FLOAT -> {
                    out.addFloat(Float.intBitsToFloat((int) INT_LE.get(b, p)));
                    pos = p + 4;
                }
                case DOUBLE -> {
                    out.addDouble(Double.longBitsToDouble((long) LONG_LE.get(b, p)));
                    pos = p + 8;
                }
                case INT96 -> {
                    if (int96 != null) {
                        int96.addInt96(b, p);
                    } else {
                        out.addBinary(Binary.fromConstantByteArray(b, p, 12));
                    }
                    pos = p + 12;
                }
                case BINARY -> {
                    int len = (int) INT_LE.get(b, p);
                    if (len < 0 || p + 4 + len > end) {
                        throw beyondPage(4 + len);
                    }
                    if (string != null) {
                        string.addBytes(b, p + 4, len);
                    } else {
                        out.addBinary(Binary.fromConstantByteArray(b, p + 4, len));
                    }
                    pos = p + 4 + len;
                }
                default -> throw new IllegalStateException("no plain decoding here for " + type);
            }
        }

        private ParquetDecodingException beyondPage(int bytes) {
            return new ParquetDecodingException("could not read a value of col " + desc + ": " + bytes
                    + " bytes at " + pos + " run beyond the page's " + end);
        }

        private void fromDictionary(int id) {
            if (out.hasDictionarySupport()) {
                out.addValueFromDictionary(id);
                return;
            }
            switch (type) {
                case INT32 -> out.addInt(dictionary.decodeToInt(id));
                case INT64 -> out.addLong(dictionary.decodeToLong(id));
                case FLOAT -> out.addFloat(dictionary.decodeToFloat(id));
                case DOUBLE -> out.addDouble(dictionary.decodeToDouble(id));
                case BOOLEAN -> out.addBoolean(dictionary.decodeToBoolean(id));
                default -> out.addBinary(dictionary.decodeToBinary(id));
            }
        }

        private void other() {
            switch (type) {
                case INT32 -> out.addInt(values.readInteger());
                case INT64 -> out.addLong(values.readLong());
                case FLOAT -> out.addFloat(values.readFloat());
                case DOUBLE -> out.addDouble(values.readDouble());
                case BOOLEAN -> out.addBoolean(values.readBoolean());
                default -> out.addBinary(values.readBytes());
            }
        }

        private void nextPage() {
            DataPage page = pages.readPage();
            if (page == null) {
                throw new ParquetDecodingException("column " + desc + " has fewer values than its row group's rows");
            }
            try {
                if (page instanceof DataPageV1 v1) {
                    left = v1.getValueCount();
                    ByteBufferInputStream in = v1.getBytes().toInputStream();
                    // No repetition levels in a flat column, but the encoding's reader skips their bytes if any.
                    v1.getRlEncoding().getValuesReader(desc, ValuesType.REPETITION_LEVEL).initFromPage(left, in);
                    levelsV1 = v1.getDlEncoding().getValuesReader(desc, ValuesType.DEFINITION_LEVEL);
                    levelsV1.initFromPage(left, in);
                    levelsV2 = null;
                    values(v1.getValueEncoding(), in);
                } else {
                    DataPageV2 v2 = (DataPageV2) page;
                    left = v2.getValueCount();
                    levelsV1 = null;
                    levelsV2 = optional ? new RunLengthBitPackingHybridDecoder(
                            BytesUtils.getWidthFromMaxInt(desc.getMaxDefinitionLevel()),
                            v2.getDefinitionLevels().toInputStream()) : null;
                    values(v2.getDataEncoding(), v2.getData().toInputStream());
                }
            } catch (IOException e) {
                throw new ParquetDecodingException("could not read page " + page + " in col " + desc, e);
            }
        }

        private void values(Encoding encoding, ByteBufferInputStream in) throws IOException {
            buf = null;
            dictionaryIds = encoding.usesDictionary();
            if (dictionaryIds) {
                if (dictionary == null) {
                    throw new ParquetDecodingException("could not read page in col " + desc
                            + " as the dictionary was missing for encoding " + encoding);
                }
                values = encoding.getDictionaryBasedValuesReader(desc, ValuesType.VALUES, dictionary);
                values.initFromPage(left, in);
            } else if (encoding == Encoding.PLAIN && type != PrimitiveTypeName.BOOLEAN
                    && type != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
                int n = in.available();
                ByteBuffer bb = in.slice(n);
                if (bb.hasArray()) {
                    buf = bb.array();
                    pos = bb.arrayOffset() + bb.position();
                } else {
                    buf = new byte[bb.remaining()];
                    bb.get(buf);
                    pos = 0;
                }
                end = pos + n;
                values = null;
            } else {
                values = encoding.getValuesReader(desc, ValuesType.VALUES);
                values.initFromPage(left, in);
            }
        }
    }
}

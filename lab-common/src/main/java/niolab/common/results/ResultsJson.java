package niolab.common.results;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.util.Locale;

/**
 * The one mapping between the result records and their JSON, for the side that writes and the
 * side that reads. JSON names are snake_case, record components camelCase. Unknown fields are
 * skipped, since a schema lets fields be added without a new version; a null where a record has
 * a primitive is an error, since it would read as a silent 0. Every double is written with three
 * decimals, never in exponent form, and one that is not finite as null (see {@link ThreeDecimals});
 * so a number read must be finite too ({@link FiniteDouble}): {@code 1E999} would read as infinity
 * and be written back as a null that no longer reads.
 */
public final class ResultsJson {
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .addModule(new SimpleModule("three-decimals")
                    .addSerializer(Double.class, new ThreeDecimals())
                    .addSerializer(double.class, new ThreeDecimals())
                    .addDeserializer(Double.class, new FiniteDouble(Double.class, null))
                    .addDeserializer(double.class, new FiniteDouble(Double.TYPE, 0.0)))
            .build();

    /** Two-space indent, {@code "name": value}: the layout of the files people open (env.json, conditions.json). */
    private static final DefaultPrettyPrinter PRETTY = new DefaultPrettyPrinter()
            .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"));

    private ResultsJson() {
    }

    /** {@code value} on one line, as echo-bench writes its reports. */
    public static String compact(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a result record does not serialize: " + e.getOriginalMessage(), e);
        }
    }

    /** {@code value} indented, a field a line. */
    public static String pretty(Object value) {
        try {
            return MAPPER.writer(PRETTY).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a result record does not serialize: " + e.getOriginalMessage(), e);
        }
    }

    /** A measured value for a boxed field: NaN (not measured) is null, which reads back as null. */
    public static Double orNull(double value) {
        return Double.isNaN(value) ? null : value;
    }

    /** {@code json} read into {@code type}; a malformed or mistyped document is an {@link IllegalArgumentException}. */
    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    /**
     * Measured values carry three decimals (µs latencies to the nanosecond, seconds to the
     * millisecond), as echo-bench has always written them: {@code 24563.452}, {@code 0.000}; a
     * value that could not be measured (NaN) is null.
     */
    static final class ThreeDecimals extends StdSerializer<Double> {
        ThreeDecimals() {
            super(Double.class);
        }

        @Override
        public void serialize(Double value, JsonGenerator out, SerializerProvider provider) throws IOException {
            if (Double.isFinite(value)) {
                out.writeNumber(String.format(Locale.ROOT, "%.3f", value));
            } else {
                out.writeNull();
            }
        }
    }

    /** Jackson's own reading of a double, which refuses what is not finite (a literal past a double's range, "Infinity", "NaN"). */
    static final class FiniteDouble extends NumberDeserializers.DoubleDeserializer {
        FiniteDouble(Class<Double> type, Double nullValue) {
            super(type, nullValue);
        }

        @Override
        public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            Double v = super.deserialize(p, ctxt);
            if (v != null && !Double.isFinite(v)) {
                return (Double) ctxt.handleWeirdNumberValue(Double.class, v, "not a finite number (a results file holds finite values, or null)");
            }
            return v;
        }
    }
}

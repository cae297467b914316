package niolab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import niolab.common.results.BenchComparison;
import niolab.common.results.BenchMerge;
import niolab.common.results.BenchReport;
import org.junit.jupiter.api.Test;

/**
 * {@code JSON-SCHEMA.md} against lab-common's records: each example of the doc (a run's JSON,
 * merge's, compare's) names every field of its record, in the record's order, and nothing else,
 * at every level (config, environment, RUN, LATENCY, ERRORS, the nested objects). An object the
 * doc elides ({@code { ... }}, "as for a run") is checked where the doc spells it out. Neither
 * the doc nor the records can drift from the other again.
 */
class JsonSchemaDocTest {
    private static final PropertyNamingStrategies.NamingBase SNAKE = (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    @Test
    void theDocsExamplesNameEveryFieldOfTheRecordsInOrder() throws IOException {
        List<String> blocks = exampleBlocks();
        assertThat(blocks).hasSize(3);
        Example run = Example.parse(blocks.get(0), Map.of());
        Example merge = Example.parse(blocks.get(1), run.names);
        Example compare = Example.parse(blocks.get(2), run.names);
        assertThat(merge.root.get("command")).isEqualTo("\"merge\"");
        assertThat(compare.root.get("command")).isEqualTo("\"compare\"");
        List<String> mismatches = new ArrayList<>();
        compare("run", BenchReport.class, run.root, run, mismatches);
        compare("merge", BenchMerge.class, merge.root, merge, mismatches);
        compare("compare", BenchComparison.class, compare.root, compare, mismatches);
        assertThat(mismatches).as("JSON-SCHEMA.md against niolab.common.results").isEmpty();
    }

    @Test
    void theParserSeesFieldsNestedAndBehindNames() {
        Example e = Example.parse("{ \"a\": 1, // a comment: \"b\": 2\n \"c\": X | null, \"d\": [ { \"e\": \"f\" | \"g\" }, ... ] }\n"
                + "X = { \"h\": 1, \"i\": { \"j\": 2 } | null }", Map.of());
        assertThat(e.root.keySet()).containsExactly("a", "c", "d");
        assertThat(e.object(e.root.get("c")).keySet()).containsExactly("h", "i");
        assertThat(e.object(e.object(e.root.get("c")).get("i")).keySet()).containsExactly("j");
        assertThat(e.object(e.root.get("d")).keySet()).containsExactly("e");
        Example later = Example.parse("{ \"k\": X, \"l\": { ... } }", e.names);
        assertThat(later.object(later.root.get("k")).keySet()).containsExactly("h", "i");
        assertThat(later.object(later.root.get("l"))).isEmpty();
    }

    /** The record's JSON names (the mapper's snake_case, or an explicit name) against the doc's keys, then each nested record. */
    private static void compare(String path, Class<?> record, Map<String, Object> doc, Example example, List<String> mismatches) {
        if (doc.isEmpty()) return; // elided: "as for a run"
        List<String> names = new ArrayList<>();
        for (RecordComponent c : record.getRecordComponents()) names.add(jsonName(c));
        if (!names.equals(new ArrayList<>(doc.keySet()))) {
            mismatches.add((path.isEmpty() ? "the top level" : path) + ": the records have " + names + ", the doc " + doc.keySet());
            return;
        }
        for (RecordComponent c : record.getRecordComponents()) {
            Class<?> nested = nestedRecord(c.getGenericType());
            if (nested == null) continue;
            Map<String, Object> object = example.object(doc.get(jsonName(c)));
            if (object == null) {
                mismatches.add(path + "/" + jsonName(c) + ": the doc shows no object for " + nested.getSimpleName());
            } else {
                compare(path + "/" + jsonName(c), nested, object, example, mismatches);
            }
        }
    }

    private static String jsonName(RecordComponent c) {
        JsonProperty explicit = c.getAccessor().getAnnotation(JsonProperty.class);
        return explicit != null ? explicit.value() : SNAKE.translate(c.getName());
    }

    /** The record a component holds, itself or as a list's element; null for a plain value. */
    private static Class<?> nestedRecord(Type t) {
        if (t instanceof ParameterizedType && ((ParameterizedType) t).getRawType() == List.class) {
            t = ((ParameterizedType) t).getActualTypeArguments()[0];
        }
        return t instanceof Class && ((Class<?>) t).isRecord() ? (Class<?>) t : null;
    }

    /** The doc's code blocks, in order. */
    private static List<String> exampleBlocks() throws IOException {
        String doc = Files.readString(Path.of("JSON-SCHEMA.md"), StandardCharsets.UTF_8);
        List<String> blocks = new ArrayList<>();
        for (int start = doc.indexOf("```\n"); start >= 0; start = doc.indexOf("```\n", doc.indexOf("```", start + 4) + 3)) {
            blocks.add(doc.substring(start + 4, doc.indexOf("```", start + 4)));
        }
        return blocks;
    }

    /**
     * The doc's example, read leniently: JSON objects and arrays with {@code //} comments,
     * alternatives ({@code "a" | "b"}, {@code RUN | null}), {@code ...} for more of the same, and
     * names defined after the main object ({@code RUN = { ... }}) or in an earlier example. Keeps keys in order; a value
     * is a map (an object), a list (an array), a {@link Ref} to a name, or a token.
     */
    static final class Example {
        final Map<String, Object> root;
        final Map<String, Object> names = new LinkedHashMap<>();
        private final List<String> tokens;
        private int next;

        private record Ref(String name) {
        }

        private Example(List<String> tokens, Map<String, Object> earlier) {
            this.tokens = tokens;
            names.putAll(earlier);
            this.root = object(value());
            while (next < tokens.size()) {
                String name = tokens.get(next++);
                expect("=");
                names.put(name, value());
            }
        }

        static Example parse(String text, Map<String, Object> earlier) {
            return new Example(tokenize(text), earlier);
        }

        /** The object a value is or names; among alternatives, the first that is one. */
        @SuppressWarnings("unchecked")
        Map<String, Object> object(Object value) {
            if (value instanceof Ref) return object(names.get(((Ref) value).name()));
            if (value instanceof Map) return (Map<String, Object>) value;
            if (value instanceof List) {
                for (Object v : (List<Object>) value) {
                    Map<String, Object> o = object(v);
                    if (o != null) return o;
                }
            }
            return null;
        }

        /** A value and its alternatives ({@code a | b}), as a list when there are several: arrays and alternatives read alike. */
        private Object value() {
            List<Object> alternatives = new ArrayList<>();
            alternatives.add(single());
            while (next < tokens.size() && peek("|")) {
                next++;
                alternatives.add(single());
            }
            return alternatives.size() == 1 ? alternatives.get(0) : alternatives;
        }

        private Object single() {
            String t = tokens.get(next++);
            if (t.equals("{")) {
                Map<String, Object> o = new LinkedHashMap<>();
                while (!peek("}")) {
                    String key = tokens.get(next++);
                    if (key.equals(",") || key.equals("...")) continue;
                    expect(":");
                    o.put(unquote(key), value());
                }
                next++;
                return o;
            }
            if (t.equals("[")) {
                List<Object> items = new ArrayList<>();
                while (!peek("]")) {
                    if (peek(",") || peek("...")) {
                        next++;
                    } else {
                        items.add(value());
                    }
                }
                next++;
                return items;
            }
            return Character.isUpperCase(t.charAt(0)) ? new Ref(t) : t;
        }

        private boolean peek(String t) {
            if (next >= tokens.size()) throw new IllegalArgumentException("the example ends inside an object or array");
            return tokens.get(next).equals(t);
        }

        private void expect(String t) {
            if (!tokens.get(next++).equals(t)) throw new IllegalArgumentException("expected " + t + " before token " + next + ": " + tokens.get(next - 1));
        }

        private static String unquote(String s) {
            if (!s.startsWith("\"")) throw new IllegalArgumentException("a key that is not a string: " + s);
            return s.substring(1, s.length() - 1);
        }

        /** Strings, punctuation, {@code ...}, and runs of anything else (numbers, names, null); comments dropped. */
        private static List<String> tokenize(String text) {
            List<String> out = new ArrayList<>();
            int i = 0;
            while (i < text.length()) {
                char c = text.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (text.startsWith("//", i)) {
                    while (i < text.length() && text.charAt(i) != '\n') i++;
                } else if (c == '"') {
                    int end = text.indexOf('"', i + 1);
                    out.add(text.substring(i, end + 1));
                    i = end + 1;
                } else if (text.startsWith("...", i)) {
                    out.add("...");
                    i += 3;
                } else if ("{}[]:,|=".indexOf(c) >= 0) {
                    out.add(String.valueOf(c));
                    i++;
                } else {
                    int start = i;
                    while (i < text.length() && !Character.isWhitespace(text.charAt(i)) && "{}[]:,|=\"".indexOf(text.charAt(i)) < 0
                            && !text.startsWith("...", i)) {
                        i++;
                    }
                    out.add(text.substring(start, i));
                }
            }
            return out;
        }
    }
}

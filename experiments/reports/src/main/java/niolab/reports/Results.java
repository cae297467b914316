package niolab.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import niolab.common.CountersLine;

/** One experiment's raw results folder, {@code experiments/results/NAME/}, and typed reads from it. */
public final class Results {
    /**
     * JSON names are snake_case, record components camelCase. Unknown fields are skipped, since
     * echo-bench's schema lets fields be added without a new version; a null where the record
     * has a primitive is an error, since it would read as a silent 0.
     */
    static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    public final Path dir;

    public Results(Path dir) {
        this.dir = dir;
    }

    public boolean has(String file) {
        return Files.isRegularFile(dir.resolve(file));
    }

    public String text(String file) {
        try {
            return Files.readString(dir.resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(file) + " (run the experiment first)", e);
        }
    }

    /** A JSON file read into {@code type}, a record mirroring it. */
    public <T> T json(String file, Class<T> type) {
        try {
            return JSON.readValue(text(file), type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(dir.resolve(file) + ": " + e.getOriginalMessage(), e);
        }
    }

    /** An echo-bench {@code --json} file; one of another tool or schema version is an error, not a guess. */
    public BenchJson bench(String file) {
        BenchJson b = json(file, BenchJson.class);
        if (!"echo-bench".equals(b.tool()) || b.schema() != BenchJson.SCHEMA) {
            throw new IllegalArgumentException(dir.resolve(file) + ": " + b.tool() + " schema " + b.schema()
                    + ", but this generator reads echo-bench schema " + BenchJson.SCHEMA);
        }
        return b;
    }

    public Csv csv(String file) {
        return Csv.parse(text(file), dir.resolve(file).toString());
    }

    /** The last {@code counters: } line of a lab server's output (mp: the master's sum, not the workers'). */
    public ServerCounters counters(String file) {
        String last = CountersLine.last(text(file));
        if (last == null) throw new IllegalArgumentException(dir.resolve(file) + " has no counters line");
        return new ServerCounters(CountersLine.parse(last));
    }

    /** The environment block every report carries, from {@code env.json}, with the load as the run recorded it. */
    public String environment() {
        RunEnvironment env = json("env.json", RunEnvironment.class);
        if (!has("conditions.json")) return env.table(load(), null, null);
        JsonNode c = json("conditions.json", JsonNode.class);
        String steal = c.path("steal_percent").isNumber() ? Md.f2(c.get("steal_percent").asDouble()) + "% of the CPU time over the run" : null;
        return env.table(c.get("loadavg_before").asText() + " before, " + c.get("loadavg_after").asText() + " after (1, 5, 15 min)",
                steal, c.path("noise").isTextual() && has(c.get("noise").asText()) ? noiseFloor(c.get("noise").asText()) : null);
    }

    /** The A/A comparison of {@code make noise} (echo-bench compare --json): its rate ratio's interval and verdict. */
    String noiseFloor(String file) {
        JsonNode rate = json(file, JsonNode.class).path("summary").path("comparisons").path(0).path("rate");
        if (!rate.isObject()) return "measured, but too few paired rounds for an interval";
        return "A/A lt against lt, rate ratio " + Md.f3(rate.get("estimate").asDouble()) + " [" + Md.f3(rate.get("low").asDouble()) + ", "
                + Md.f3(rate.get("high").asDouble()) + "] over " + rate.get("rounds").asInt() + " rounds: " + rate.get("words").asText();
    }

    /**
     * The 1-minute load average around a run from before conditions.json, wherever it recorded
     * it: a settings.csv row or column, ffi's load.csv, mistakes' loadavg.txt, or a load1
     * column per measurement (cold-start). Null when the run recorded none.
     */
    String load() {
        if (has("settings.csv")) {
            Csv settings = csv("settings.csv");
            if (settings.header().contains("load_before")) {
                java.util.Map<String, String> row = settings.rows().get(0);
                return row.get("load_before") + " before, " + row.get("load_after") + " after";
            }
            if (settings.header().contains("key") && settings.numbers("value", "key", "load_at_start").length > 0) {
                return settings.row("key", "load_at_start").get("value") + " before, " + settings.row("key", "load_at_end").get("value") + " after";
            }
        }
        if (has("load.csv")) {
            Csv load = csv("load.csv");
            return load.rows().get(0).get("load1") + " before, " + load.row("phase", "end").get("load1") + " after";
        }
        if (has("loadavg.txt")) return text("loadavg.txt").trim().split(" ")[0] + " before, not recorded after";
        for (String file : new String[] {"pairs.csv", "ready.csv"}) {
            if (has(file) && csv(file).header().contains("load1")) {
                double[] v = csv(file).numbers("load1");
                return Md.f2(v[Stats.best(v, false)]) + " to " + Md.f2(v[Stats.best(v, true)]) + " at the starts of the measurements";
            }
        }
        return null;
    }
}

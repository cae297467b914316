package niolab.testkit;

import org.opentest4j.TestAbortedException;

/** A skip that names what it skipped for: its message starts {@code [label] }, as the summary line groups them. */
public final class CapabilitySkip extends TestAbortedException {
    private static final long serialVersionUID = 1L;

    public final transient Capability capability;
    /** True for {@link Capability#assumeMissing}: skipped because the machine has it. */
    public final boolean becausePresent;

    CapabilitySkip(Capability capability, boolean becausePresent, String why) {
        super("[" + capability.label + "] " + why);
        this.capability = capability;
        this.becausePresent = becausePresent;
    }
}

package dev.klave.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Issue 51 §14: where a relayed WebSocket stream is cut at a budget, it is cut at a frame's end
 * within it. Frames of any size (short, 16-bit and 64-bit lengths, masked or not) relayed in pieces
 * split anywhere: what goes through never passes the budget, ends on a frame's end when the tracker
 * says so, and is every whole frame within the budget unless the frame that crosses it had its
 * head split between two pieces.
 */
class FrameEndsProperties {
    @Property(tries = 1000)
    void whatGoesThroughEndsOnTheLastFrameWithinTheBudget(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(max = 70_000) Integer> sizes, @ForAll boolean masked,
            @ForAll long seed) {
        Random random = new Random(seed);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        TreeSet<Long> ends = new TreeSet<>();
        TreeSet<Long> starts = new TreeSet<>();
        ends.add(0L);
        for (int size : sizes) {
            starts.add((long) wire.size());
            WebSocketFramesProperties.writeFrame(wire, true, 2, new byte[size], masked, random);
            ends.add((long) wire.size());
        }
        byte[] stream = wire.toByteArray();
        long budget = random.nextInt(stream.length + 1);
        FrameEnds frames = new FrameEnds();
        TreeSet<Long> splits = new TreeSet<>();
        long through = 0;
        int at = 0;
        while (at < stream.length) {
            int piece = Math.min(stream.length - at, 1 + random.nextInt(random.nextBoolean() ? 20 : 40_000));
            int passed = frames.within(Arrays.copyOfRange(stream, at, at + piece), budget);
            through += passed;
            at += piece;
            splits.add((long) at);
            if (passed < piece) {
                break;
            }
            assertThat(frames.atEnd()).isEqualTo(ends.contains((long) at));
        }
        assertThat(through).isLessThanOrEqualTo(Math.max(budget, 0));
        if (frames.passedToEnd()) {
            assertThat(ends).contains(through);
        }
        long expected = ends.floor(budget);
        Long crossing = starts.ceiling(expected);
        boolean headSplit = crossing != null && splits.subSet(crossing + 1, true, crossing + 14, true).stream()
                .anyMatch(split -> split < stream.length);
        if (!headSplit) {
            assertThat(through).isEqualTo(expected);
            assertThat(frames.passedToEnd()).isTrue();
        }
    }
}

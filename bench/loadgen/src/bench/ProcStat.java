package bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time and resident memory of a process, from /proc (Linux). */
final class ProcStat {
    /** Clock ticks per second of /proc/<pid>/stat; 100 on every Linux this runs on. */
    private static final double TICKS = 100.0;

    private ProcStat() {}

    /** User plus system CPU seconds the process has used so far. */
    static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        // Fields after the command name, which sits in parentheses and may hold spaces.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS;
    }

    static long rssBytes(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS for " + pid);
    }

    static int openFiles(long pid) {
        String[] names = Path.of("/proc/" + pid + "/fd").toFile().list();
        return names == null ? -1 : names.length;
    }
}

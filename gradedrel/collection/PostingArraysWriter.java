// Writes a Terrier index's postings, with positions, as numpy .npy files, in one pass.
//
//   java -cp <terrier jar> PostingArraysWriter.java <index dir> <output dir>
//
// Run by gradedrel.collection.postings.build through Java's source launcher (JDK 11+: no
// compile step, no jar). Python reading the postings through pyjnius paid three Java calls
// per posting (about 0.1 million postings per second); here the loop runs in Java and
// streams little-endian arrays straight into the .npy files, so memory stays at Terrier's
// structures plus the write buffers, whatever the collection's size.
//
// Files (see gradedrel/collection/postings.py): terms (<U n, lexicon order), term_offsets
// (int64), docids, tfs (int32, per posting), position_offsets (int64, postings + 1),
// positions (int32), doc_lengths (int64, Terrier's document index), docnos (<U n).
// Checks: every term's posting count against the lexicon, every posting's positions
// against its tf, the position total against the index's token count. On stderr: one
// progress line per 10 % of the postings (counts only, no times: job logs stay
// byte-identical between runs), and "error: ..." before a non-zero exit.

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

import org.terrier.querying.IndexRef;
import org.terrier.structures.CollectionStatistics;
import org.terrier.structures.DocumentIndex;
import org.terrier.structures.Index;
import org.terrier.structures.IndexFactory;
import org.terrier.structures.LexiconEntry;
import org.terrier.structures.MetaIndex;
import org.terrier.structures.PostingIndexInputStream;
import org.terrier.structures.postings.BlockPosting;
import org.terrier.structures.postings.IterablePosting;

public class PostingArraysWriter {

    /** A 1-d .npy file (format 1.0) of known dtype and length, written in order. */
    static final class Npy implements AutoCloseable {
        final OutputStream out;
        final ByteBuffer buffer = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        final String name;
        final long length;
        final int width;
        long written = 0;

        Npy(String dir, String name, String descr, int width, long length) throws IOException {
            this.name = name;
            this.length = length;
            this.width = width;
            out = new BufferedOutputStream(new FileOutputStream(dir + "/" + name + ".npy"), 1 << 20);
            String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + length + ",), }";
            int total = 10 + dict.length() + 1;
            int padded = (total + 63) / 64 * 64;
            StringBuilder header = new StringBuilder(dict);
            for (int i = total; i < padded; i++) header.append(' ');
            header.append('\n');
            byte[] bytes = header.toString().getBytes(StandardCharsets.US_ASCII);
            out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
            out.write(bytes.length & 0xff);
            out.write((bytes.length >> 8) & 0xff);
            out.write(bytes);
        }

        void room(int bytes) throws IOException {
            if (buffer.remaining() < bytes) {
                out.write(buffer.array(), 0, buffer.position());
                buffer.clear();
            }
        }

        void putInt(int value) throws IOException { room(4); buffer.putInt(value); written++; }

        void putLong(long value) throws IOException { room(8); buffer.putLong(value); written++; }

        /** One fixed-width UTF-32 string (numpy's <U width), zero-padded. */
        void putString(String value) throws IOException {
            room(4 * width);
            int[] points = value.codePoints().toArray();
            for (int i = 0; i < width; i++) buffer.putInt(i < points.length ? points[i] : 0);
            written++;
        }

        @Override
        public void close() throws IOException {
            out.write(buffer.array(), 0, buffer.position());
            out.close();
            if (written != length) fail(name + ": " + written + " values written, " + length + " expected");
        }
    }

    static void fail(String message) {
        System.err.println("error: " + message);
        System.exit(1);
    }

    @SuppressWarnings("unchecked")
    static Iterator<Map.Entry<String, LexiconEntry>> lexicon(Index index) throws IOException {
        return (Iterator<Map.Entry<String, LexiconEntry>>) index.getIndexStructureInputStream("lexicon");
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) fail("usage: PostingArraysWriter <index dir> <output dir>");
        String out = args[1];
        Index index = IndexFactory.of(IndexRef.of(args[0] + "/data.properties"));
        if (index == null) fail(args[0] + ": not a Terrier index (no data.properties)");
        CollectionStatistics stats = index.getCollectionStatistics();
        int terms = stats.getNumberOfUniqueTerms();
        int documents = stats.getNumberOfDocuments();
        long postings = stats.getNumberOfPointers();
        long tokens = stats.getNumberOfTokens();

        // terms and their document frequencies, in the lexicon's (= the inverted index's) order
        int[] dfs = new int[terms];
        int longest = 1, t = 0;
        for (Iterator<Map.Entry<String, LexiconEntry>> it = lexicon(index); it.hasNext(); t++) {
            Map.Entry<String, LexiconEntry> entry = it.next();
            if (t >= terms) fail("the lexicon has more than the " + terms + " terms the index counts");
            dfs[t] = entry.getValue().getDocumentFrequency();
            longest = Math.max(longest, entry.getKey().codePointCount(0, entry.getKey().length()));
        }
        if (t != terms) fail("the lexicon has " + t + " terms, the index counts " + terms);
        try (Npy termFile = new Npy(out, "terms", "<U" + longest, longest, terms);
             Npy offsets = new Npy(out, "term_offsets", "<i8", 8, terms + 1L)) {
            long offset = 0;
            offsets.putLong(0);
            Iterator<Map.Entry<String, LexiconEntry>> it = lexicon(index);
            for (t = 0; t < terms; t++) {
                termFile.putString(it.next().getKey());
                offset += dfs[t];
                offsets.putLong(offset);
            }
            if (offset != postings) fail("the lexicon's document frequencies sum to " + offset
                                         + ", the index counts " + postings + " postings");
        }

        // every posting list, in the same order
        PostingIndexInputStream inverted =
            (PostingIndexInputStream) index.getIndexStructureInputStream("inverted");
        long read = 0, positionCount = 0, step = Math.max(1, postings / 10), next = step;
        try (Npy docids = new Npy(out, "docids", "<i4", 4, postings);
             Npy tfs = new Npy(out, "tfs", "<i4", 4, postings);
             Npy positionOffsets = new Npy(out, "position_offsets", "<i8", 8, postings + 1);
             Npy positions = new Npy(out, "positions", "<i4", 4, tokens)) {
            positionOffsets.putLong(0);
            for (t = 0; t < terms; t++) {
                if (!inverted.hasNext()) fail("the inverted index ends at term " + t + " of " + terms);
                IterablePosting posting = inverted.next();
                if (inverted.getEntriesSkipped() != 0) fail("the inverted index skipped a term at " + t);
                BlockPosting block = (BlockPosting) posting;
                int count = 0;
                while (posting.next() != IterablePosting.EOL) {
                    int[] where = block.getPositions();
                    if (where.length != posting.getFrequency())
                        fail("term " + t + ", document " + posting.getId() + ": tf " + posting.getFrequency()
                             + " but " + where.length + " positions (block size above 1, or documents"
                             + " longer than blocks.max)");
                    docids.putInt(posting.getId());
                    tfs.putInt(where.length);
                    for (int p : where) positions.putInt(p);
                    positionCount += where.length;
                    positionOffsets.putLong(positionCount);
                    count++;
                }
                if (count != dfs[t]) fail("term " + t + ": " + count + " postings, the lexicon says " + dfs[t]);
                read += count;
                if (read >= next) {
                    System.err.printf("postings: %d of %d (%d%%)%n", read, postings,
                                      100 * read / postings);
                    next += step;
                }
            }
            if (positionCount != tokens)
                fail(positionCount + " positions read but the index holds " + tokens + " tokens");
        }
        inverted.close();

        // per document: Terrier's length, and the docno
        DocumentIndex lengths = index.getDocumentIndex();
        MetaIndex meta = index.getMetaIndex();
        int widest = 1;
        for (int d = 0; d < documents; d++) {
            String docno = meta.getItem("docno", d);
            widest = Math.max(widest, docno.codePointCount(0, docno.length()));
        }
        try (Npy docLengths = new Npy(out, "doc_lengths", "<i8", 8, documents);
             Npy docnos = new Npy(out, "docnos", "<U" + widest, widest, documents)) {
            for (int d = 0; d < documents; d++) {
                docLengths.putLong(lengths.getDocumentLength(d));
                docnos.putString(meta.getItem("docno", d));
            }
        }
        index.close();
        System.err.printf("wrote %d postings (%d positions) of %d terms over %d documents%n",
                          postings, tokens, terms, documents);
    }
}

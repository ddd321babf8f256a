// PktFrameReader: union frames from a byte stream.
using System;
using System.Collections.Generic;
using Pkt;
using Test.Everything;

namespace PktTests
{
    public static class FrameTests
    {
        private static byte[] Stream(out List<byte[]> frames)
        {
            frames = new List<byte[]>
            {
                new Command.Ping(1).ToArray(),
                new Command.Say("hello").ToArray(),
                new Command.Leaf(Fixtures.MakeLeaf("leaf", 2)).ToArray(),
                new Command.Nop().ToArray(),
                new Command.Unknown(11, new byte[] { 1, 2, 3 }).ToArray(),
                new Command.Batch(new List<uint> { 5, 6 }).ToArray(),
            };
            var all = new List<byte>();
            foreach (var f in frames) all.AddRange(f);
            return all.ToArray();
        }

        private static List<byte[]> Drain(PktFrameReader<Command> reader)
        {
            var got = new List<byte[]>();
            Command c;
            while (reader.TryRead(out c)) got.Add(c.ToArray());
            return got;
        }

        private static void Same(List<byte[]> expected, List<byte[]> actual, string what)
        {
            Check.Equal(expected.Count, actual.Count, what + ": frame count");
            for (int i = 0; i < expected.Count; i++) Check.Bytes(expected[i], actual[i], what + ": frame " + i);
        }

        public static void ByteAtATime()
        {
            List<byte[]> frames;
            var stream = Stream(out frames);
            var reader = new PktFrameReader<Command>(Command.ReadFrom);
            var got = new List<byte[]>();
            for (int i = 0; i < stream.Length; i++)
            {
                reader.Push(new ReadOnlySpan<byte>(stream, i, 1));
                got.AddRange(Drain(reader));
            }
            Same(frames, got, "byte at a time");
            Check.Equal(0, reader.Buffered, "nothing left");
            Check.Equal((long)stream.Length, reader.StreamPosition, "stream position");
        }

        public static void SplitEverywhere()
        {
            List<byte[]> frames;
            var stream = Stream(out frames);
            for (int a = 0; a <= stream.Length; a++)
            {
                var reader = new PktFrameReader<Command>(Command.ReadFrom);
                reader.Push(new ReadOnlySpan<byte>(stream, 0, a));
                var got = Drain(reader);
                reader.Push(new ReadOnlySpan<byte>(stream, a, stream.Length - a));
                got.AddRange(Drain(reader));
                Same(frames, got, "split at " + a);
            }
            var all = new PktFrameReader<Command>(Command.ReadFrom);
            all.Push(stream, 0, stream.Length);
            Same(frames, Drain(all), "one push");
            var server = new PktFrameReader<Game.Net.ServerPacket>(Game.Net.ServerPacket.ReadFrom);
            var pong = new Game.Net.ServerPacket.Pong(new Game.Net.Pong { ClientTime = 9 }).ToArray();
            server.Push(pong);
            Game.Net.ServerPacket sp;
            Check.True(server.TryRead(out sp) && sp is Game.Net.ServerPacket.Pong, "server packet");
        }

        public static void OversizedPrefix()
        {
            var reader = new PktFrameReader<Command>(Command.ReadFrom, new PktLimits(64, 1 << 24, 1000, 1 << 24));
            reader.Push(new Command.Ping(1).ToArray());
            Command c;
            Check.True(reader.TryRead(out c) && c is Command.Ping, "frame before the bad prefix");
            reader.Push(Hex.Parse("e9 03"));
            Check.True(!reader.IsFailed, "two bytes of a prefix are not judged yet");
            reader.Push(Hex.Parse("00 00"));
            Check.True(reader.IsFailed, "1001 > MaxFrame rejected as soon as the prefix is complete");
            Check.Fails(PktDecodeReason.LimitExceeded, () => reader.TryRead(out c), "TryRead reports the failure");
            reader.Push(new byte[100000]);
            Check.Equal(0, reader.Buffered, "nothing buffered after failure");
            Check.Fails(PktDecodeReason.LimitExceeded, () => reader.TryRead(out c), "stays failed");

            var def = new PktFrameReader<Command>(Command.ReadFrom);
            def.Push(Hex.Parse("ff ff ff ff"));
            Check.True(def.IsFailed, "0xFFFFFFFF prefix with default limits");
            var e = Check.Fails(PktDecodeReason.LimitExceeded, () => def.TryRead(out c), "default limits");
            Check.Equal(0L, e.Offset, "offset");
        }

        public static void BadFrameKeepsSync()
        {
            var good1 = new Command.Say("one").ToArray();
            var bad = Hex.Parse("06 00 00 00 08 02 05 00 00 00");       // option flag 2
            var bad2 = Hex.Parse("03 00 00 00 01 07 07");                 // variant too long
            var good2 = new Command.Ping(2).ToArray();
            var reader = new PktFrameReader<Command>(Command.ReadFrom);
            reader.Push(good1);
            reader.Push(bad);
            reader.Push(bad2);
            reader.Push(good2);
            Command c;
            Check.True(reader.TryRead(out c) && c is Command.Say, "first good frame");
            var e = Check.Fails(PktDecodeReason.InvalidOptionFlag, () => reader.TryRead(out c), "bad frame");
            Check.Equal((long)good1.Length + 5, e.Offset, "absolute stream offset of the bad byte");
            Check.Fails(PktDecodeReason.VariantLength, () => reader.TryRead(out c), "second bad frame");
            Check.True(reader.TryRead(out c) && c is Command.Ping && ((Command.Ping)c).Value == 2, "next frame intact");
            Check.True(!reader.TryRead(out c), "drained");
            Check.True(!reader.IsFailed, "a bad frame does not fail the reader");
        }

        public static void EmptyFrameFlood()
        {
            var reader = new PktFrameReader<Command>(Command.ReadFrom);
            var chunk = new byte[4096]; // 1024 empty frames per push
            int errors = 0;
            for (int round = 0; round < 100; round++)
            {
                reader.Push(chunk);
                Check.True(reader.Buffered <= chunk.Length, "buffered " + reader.Buffered);
                while (true)
                {
                    Command c;
                    try
                    {
                        if (!reader.TryRead(out c)) break;
                        Check.True(false, "an empty frame decoded");
                    }
                    catch (PktDecodeException e)
                    {
                        Check.Equal(PktDecodeReason.UnexpectedEnd, e.Reason, "empty frame reason");
                        errors++;
                    }
                }
                Check.Equal(0, reader.Buffered, "every empty frame consumed");
            }
            Check.Equal(100 * 1024, errors, "one error per empty frame");
            Check.True(!reader.IsFailed, "empty frames are bad frames, not a broken stream");
            reader.Push(new Command.Ping(9).ToArray());
            Command last;
            Check.True(reader.TryRead(out last) && last is Command.Ping, "a good frame after the flood");
        }

        public static void GarbageBetweenFrames()
        {
            List<byte[]> frames;
            var good = Stream(out frames);
            var limits = new PktLimits(64, 1 << 24, 4096, 1 << 24);
            var rand = new Random(1234);
            for (int round = 0; round < 200; round++)
            {
                var reader = new PktFrameReader<Command>(Command.ReadFrom, limits);
                var bytes = new List<byte>(good);
                var garbage = new byte[1 + rand.Next(16)];
                rand.NextBytes(garbage);
                bytes.InsertRange(rand.Next(bytes.Count), garbage);
                for (int i = 0; i < 8192; i++) bytes.Add(0xAA);
                var all = bytes.ToArray();
                for (int at = 0; at < all.Length && !reader.IsFailed; )
                {
                    int n = Math.Min(1 + rand.Next(64), all.Length - at);
                    reader.Push(all, at, n);
                    at += n;
                    Check.True(reader.Buffered <= 4096 + 4 + n, "round " + round + ": buffered " + reader.Buffered);
                    while (true)
                    {
                        Command c;
                        try { if (!reader.TryRead(out c)) break; }
                        catch (PktDecodeException) { if (reader.IsFailed) break; }
                    }
                }
                // The 0xAA tail reads as a huge length prefix wherever framing lands.
                Check.True(reader.IsFailed, "round " + round + ": stream refused in the end");
            }
        }
    }
}

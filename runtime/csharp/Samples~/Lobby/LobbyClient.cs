// Joins the lobby server of the pktc guide (docs/guide.md, section 2), says
// hello and logs every reply. Put it on a GameObject, start the server and
// enter Play mode; call Say from a button to chat.
using System.Net.Sockets;
using Pkt;
using UnityEngine;

namespace Lobby.Sample
{
    public sealed class LobbyClient : MonoBehaviour
    {
        public string Host = "127.0.0.1";
        public int Port = 7777;
        public string PlayerName = "amy";

        private readonly PktFrameReader<ServerMsg> frames = new PktFrameReader<ServerMsg>(ServerMsg.ReadFrom);
        private readonly byte[] buffer = new byte[4096];
        private TcpClient tcp;
        private NetworkStream stream;

        private void Start()
        {
            tcp = new TcpClient(Host, Port);
            stream = tcp.GetStream();
            Send(new ClientMsg.Hello(new Hello { Name = PlayerName }));
        }

        private void Update()
        {
            if (stream == null) return;
            // Whatever TCP delivered, however it is split; whole frames come out.
            while (stream.DataAvailable)
            {
                int n = stream.Read(buffer, 0, buffer.Length);
                if (n == 0) break;
                frames.Push(buffer, 0, n);
            }
            ServerMsg msg;
            while (frames.TryRead(out msg))
            {
                // ServerMsg.Welcome(Welcome { PlayerId = 7, Motd = "hi amy" })
                Debug.Log(msg);
            }
        }

        public void Say(string text)
        {
            Send(new ClientMsg.Say(new Say { Text = text }));
        }

        private void Send(ClientMsg msg)
        {
            // One right-sized array per message.
            var bytes = msg.ToArray();
            stream.Write(bytes, 0, bytes.Length);
        }

        private void OnDestroy()
        {
            if (tcp != null) tcp.Close();
        }
    }
}

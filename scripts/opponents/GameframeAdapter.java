// One seat of our Penguins referee's protocol (CodinGame's, see docs/penguins.md) played by
// tpepels/mcts_gameframe's Penguin MCTS: MCTSPlayer with the MCTS-solver on and playouts cut after
// 3 random moves by the game's flood-fill evaluation. Compiled by scripts/opponents.sh against a
// local checkout of mcts_gameframe at commit f404332 (later commits break its MCTS for this game);
// no gameframe code lives in this repository.
//
//     java -cp CLASSES GameframeAdapter [--ms N] [--seed S]
//     java -cp CLASSES GameframeAdapter --simulations N [--seed S]   # fixed compute, any load
//
// Gameframe plays 2 players, placement on one-fish tiles, no pushing (our league1,one-fish); at
// the end it scores the tiles under the penguins (our score-under). Its board has 8 rows of 8, 7,
// 8, ... cells with the odd rows shifted right; ours is the same picture upside down, so our row r
// is its row 7 - r. The adapter keeps a gameframe board and replays every move it sees (its own,
// then the opponent's; a player who cannot move passes there, as gameframe's rules want), then
// searches it for N ms from the turn's first input line.

import ai.mcts.MCTSOptions;
import ai.mcts.MCTSPlayer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import penguin.game.Board;
import penguin.game.Move;

public class GameframeAdapter {
    private static final int ROWS = 8;

    private static final class Action {
        final String text;
        final int id;
        final int cell;

        Action(String text, int id, int cell) {
            this.text = text;
            this.id = id;
            this.cell = cell;
        }
    }

    private static BufferedReader in;

    public static void main(String[] args) throws Exception {
        long ms = 1000;
        long seed = 1;
        int simulations = 0;
        for (int k = 0; k + 1 < args.length; k += 2) {
            if (args[k].equals("--ms")) ms = Long.parseLong(args[k + 1]);
            else if (args[k].equals("--seed")) seed = Long.parseLong(args[k + 1]);
            else if (args[k].equals("--simulations")) simulations = Integer.parseInt(args[k + 1]);
            else fail("unknown argument " + args[k] + " (usage: --ms N | --simulations N, --seed S)");
        }
        // Gameframe prints its own notes on stdout: keep stdout for the answers only.
        PrintStream answers = System.out;
        System.setOut(System.err);
        MCTSOptions.r.setSeed(seed);
        in = new BufferedReader(new InputStreamReader(System.in));
        int players = number(in.readLine());
        int me = number(in.readLine());
        number(in.readLine());
        if (players != 2) fail("gameframe plays 2-player games only");

        Board board = null;
        Map<Integer, Integer> seen = new HashMap<>(); // penguin id -> our cell
        Move mine = null; // our last move, in gameframe terms
        String first;
        while ((first = in.readLine()) != null) {
            long started = System.currentTimeMillis();
            int rows = number(first);
            int[] fish = new int[64];
            for (int r = 0; r < rows; r++) {
                String line = in.readLine().trim();
                for (int c = 0; c < 8 && c < line.length(); c++) fish[r * 8 + c] = line.charAt(c) - '0';
            }
            number(in.readLine());
            number(in.readLine());
            int count = number(in.readLine());
            Map<Integer, Integer> cells = new HashMap<>();
            Map<Integer, Integer> owners = new HashMap<>();
            for (int k = 0; k < count; k++) {
                String[] w = in.readLine().trim().split("\\s+");
                cells.put(Integer.parseInt(w[0]), cell(w[2]));
                owners.put(Integer.parseInt(w[0]), Integer.parseInt(w[1]));
            }
            int actionCount = number(in.readLine());
            List<Action> actions = new ArrayList<>();
            for (int k = 0; k < actionCount; k++) {
                String line = in.readLine();
                String[] w = line.trim().split("\\s+");
                actions.add(new Action(line, Integer.parseInt(w[1]), cell(w[2])));
            }
            if (board == null) {
                board = new Board();
                board.initialize();
                for (int r = 0; r < ROWS; r++)
                    for (int c = 0; c < 8; c++)
                        if (inBoard(r, c)) board.board[7 - r][c] = fish[r * 8 + c];
            }
            if (mine != null) play(board, mine, me + 1);
            // The opponent's moves since then: a new penguin (placement) or one on another cell.
            for (Map.Entry<Integer, Integer> e : cells.entrySet()) {
                int owner = owners.get(e.getKey());
                Integer before = seen.get(e.getKey());
                if (owner == me || (before != null && before.equals(e.getValue()))) continue;
                int to = e.getValue();
                Move m = before == null
                        ? new Move(7 - to / 8, to % 8, 0, 0, Move.PLACE, 0)
                        : new Move(7 - before / 8, before % 8, 7 - to / 8, to % 8, Move.MOVE,
                                board.board[7 - before / 8][before % 8] % 100);
                play(board, m, owner + 1);
            }
            seen = cells;
            String answer = actions.isEmpty() ? "MOVE 0 A1" : actions.get(0).text;
            mine = null;
            if (!actions.isEmpty()) {
                passUntil(board, me + 1);
                Move best = search(board, me + 1, Math.max(1, ms - (System.currentTimeMillis() - started)), simulations);
                Action chosen = listed(best, actions, cells);
                if (chosen != null) {
                    answer = chosen.text;
                    mine = best;
                } else {
                    System.err.println("gameframe-adapter: its move " + best + " is not listed; playing the first");
                    mine = toMove(board, actions.get(0), cells);
                }
            }
            answers.println(answer);
            answers.flush();
        }
    }

    private static void fail(String message) {
        System.err.println("gameframe-adapter: " + message);
        System.exit(2);
    }

    private static int number(String line) {
        if (line == null) fail("input ended");
        return Integer.parseInt(line.trim());
    }

    private static int cell(String name) {
        return (name.charAt(1) - '1') * 8 + (name.charAt(0) - 'A');
    }

    // Our short rows are the even ones (0-based), missing column H.
    private static boolean inBoard(int r, int c) {
        return c < (r % 2 == 0 ? 7 : 8);
    }

    // Gameframe's players alternate strictly, a stuck player passing; ours skip a stuck player.
    private static void passUntil(Board board, int player) {
        while (board.getPlayerToMove() != player && board.checkWin() == Board.NONE_WIN)
            board.doAIMove(new Move(0, 0, 0, 0, Move.PASS, 0), board.getPlayerToMove());
    }

    private static void play(Board board, Move move, int player) {
        passUntil(board, player);
        board.doAIMove(move, player);
    }

    private static Move search(Board board, int player, long ms, int simulations) {
        MCTSOptions options = new MCTSOptions();
        options.setGame("penguin");
        options.debug = false;
        options.useHeuristics = false;
        options.solver = true;
        options.earlyEval = true;
        options.pdepth = 3;
        options.fixedSimulations = simulations > 0;
        options.simulations = simulations;
        options.timeInterval = (int) ms;
        options.resetSimulations("penguin");
        MCTSPlayer ai = new MCTSPlayer();
        ai.setOptions(options);
        ai.getMove(board.copy(), null, player, false, null);
        // After a timed search gameframe keeps 1.1 x its simulation count (for its next search).
        int done = options.fixedSimulations ? options.simulations : (int) Math.round(options.numSimulations / 1.1);
        System.err.println("gameframe-adapter: " + done + " simulations");
        return (Move) ai.getBestMove();
    }

    private static Action listed(Move m, List<Action> actions, Map<Integer, Integer> cells) {
        if (m == null) return null;
        int[] a = m.getMove();
        for (Action act : actions) {
            if (m.getType() == Move.PLACE && act.cell == (7 - a[0]) * 8 + a[1]) return act;
            if (m.getType() == Move.MOVE && act.cell == (7 - a[2]) * 8 + a[3]
                    && cells.getOrDefault(act.id, -1) == (7 - a[0]) * 8 + a[1]) return act;
        }
        return null;
    }

    private static Move toMove(Board board, Action act, Map<Integer, Integer> cells) {
        Integer from = cells.get(act.id);
        if (from == null) return new Move(7 - act.cell / 8, act.cell % 8, 0, 0, Move.PLACE, 0);
        return new Move(7 - from / 8, from % 8, 7 - act.cell / 8, act.cell % 8, Move.MOVE,
                board.board[7 - from / 8][from % 8] % 100);
    }
}

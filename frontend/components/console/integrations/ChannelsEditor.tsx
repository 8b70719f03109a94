"use client";

import { Button } from "@/components/console/ui/Button";
import { Field } from "@/components/console/ui/Field";
import formStyles from "@/components/console/ui/forms.module.css";
import type { Channel, ChannelMode } from "@/lib/integrations/types";

interface ChannelsEditorProps {
  channels: Channel[];
  onChange: (channels: Channel[]) => void;
}

/** The channels the bot may answer in, and how: when mentioned, or every message. */
export function ChannelsEditor({ channels, onChange }: ChannelsEditorProps) {
  const update = (index: number, change: Partial<Channel>) =>
    onChange(channels.map((c, i) => (i === index ? { ...c, ...change } : c)));
  return (
    <fieldset className={formStyles.fieldset}>
      <legend className={formStyles.legend}>Allowed channels</legend>
      {channels.length === 0 ? <p>No channels yet: the bot answers nowhere but in DMs.</p> : null}
      {channels.map((channel, index) => (
        <div key={index} className={formStyles.row} data-part="channel">
          <Field label={`Channel ${index + 1} id`}>
            {(c) => (
              <input
                {...c}
                required
                value={channel.id}
                onChange={(e) => update(index, { id: e.target.value })}
              />
            )}
          </Field>
          <Field label={`Channel ${index + 1} name`}>
            {(c) => (
              <input
                {...c}
                value={channel.name}
                onChange={(e) => update(index, { name: e.target.value })}
              />
            )}
          </Field>
          <Field label={`Channel ${index + 1} answers`}>
            {(c) => (
              <select
                {...c}
                value={channel.mode}
                onChange={(e) => update(index, { mode: e.target.value as ChannelMode })}
              >
                <option value="mention">When mentioned</option>
                <option value="all">Every message</option>
              </select>
            )}
          </Field>
          <Button small onClick={() => onChange(channels.filter((_, i) => i !== index))}>
            Remove channel {index + 1}
          </Button>
        </div>
      ))}
      <div>
        <Button
          small
          onClick={() => onChange([...channels, { id: "", name: "", mode: "mention" }])}
        >
          Add a channel
        </Button>
      </div>
    </fieldset>
  );
}

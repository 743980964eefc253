import type { PortalLocale } from './language';
import type { ProblemKind } from './problems';

/**
 * Every word the page shows, in each language a request may have. `{name}`, `{count}` and `{when}` are filled in by
 * messages.ts. The person reads these and nothing of the API's own wording (which is for operators). Portuguese is
 * written as in Brazil; the imperative forms read the same in Portugal.
 */
export interface ProblemText {
  title: string;
  detail: string;
}

export interface Texts {
  /** The document's title and the page's heading. */
  title: string;
  checking: string;
  /** Labels of the request's reference and of the link's expiry. */
  reference: string;
  validUntil: string;
  codeHeading: string;
  codeIntro: string;
  codeLabel: string;
  codeHint: string;
  codeSubmit: string;
  codeChecking: string;
  filesHeading: string;
  filesIntro: string;
  /** A file's button; its accessible name is this and the file's name, both as shown. */
  download: string;
  downloadAgain: string;
  /** The progress bar's accessible name. */
  progress: string;
  downloading: string;
  saved: string;
  tryAgain: string;
  /** After a wrong code; chosen by the plural rules of the language (`one`, else `other`). */
  attemptsLeft: { one: string; other: string };
  /** `{when}` is a relative time in the language: `in 2 minutes`. */
  retryAfter: string;
  retryLater: string;
  problems: Record<ProblemKind, ProblemText>;
}

const en: Texts = {
  title: 'Your files',
  checking: 'Checking your link…',
  reference: 'Request',
  validUntil: 'Valid until',
  codeHeading: 'Enter your code',
  codeIntro: 'We sent you a second email with an 8-digit code. Enter it to see your files.',
  codeLabel: 'Code from the email',
  codeHint: '8 digits, for example 1234 5678',
  codeSubmit: 'Show my files',
  codeChecking: 'Checking the code…',
  filesHeading: 'Files to download',
  filesIntro: 'Save each file on this device. The downloads work in this browser tab until the link expires.',
  download: 'Download',
  downloadAgain: 'Download again',
  progress: 'Progress of {name}',
  downloading: 'Downloading {name}…',
  saved: '{name} has been downloaded.',
  tryAgain: 'Try again',
  attemptsLeft: { one: 'You have {count} try left.', other: 'You have {count} tries left.' },
  retryAfter: 'Please try again {when}.',
  retryLater: 'Please wait a few minutes and try again.',
  problems: {
    incomplete_link: { title: 'This link is incomplete', detail: 'Open the link from our email again. If you copied it, make sure you copied all of it.' },
    invalid_link: {
      title: 'This link does not work',
      detail: 'It may have been copied only in part. Open the link from our email again. If it still does not work, ask the organisation that sent it for a new one.',
    },
    expired: {
      title: 'This link has expired',
      detail: 'A link works for 24 hours, and only the newest one works. Look for a newer email, or ask the organisation that sent it for a new link.',
    },
    used: {
      title: 'This link was already used',
      detail: 'The code for this link was already entered in another browser or tab, and the files can be downloaded only there. If that was not you, or you need the files again, ask for a new link.',
    },
    locked: { title: 'This link is locked', detail: 'A wrong code was entered too many times, so the link no longer works. Ask the organisation that sent it for a new link.' },
    wrong_code: { title: 'The code is not right', detail: 'Check the code in the second email and enter it again.' },
    malformed_code: { title: 'The code is incomplete', detail: 'Enter the 8 digits of the code from the second email.' },
    too_many_tries: { title: 'Too many tries', detail: 'The service received too many requests from your connection.' },
    session_ended: {
      title: 'Your access has ended',
      detail: 'The files can be downloaded in the browser tab where the code was entered, until the link expires. Ask for a new link to download them again.',
    },
    file_gone: { title: 'This file is no longer available', detail: 'Please contact the organisation that sent you the link.' },
    network: { title: 'No connection', detail: 'The page could not reach the service. Check your internet connection and try again.' },
    unavailable: { title: 'Something went wrong', detail: 'The service could not answer just now. Please wait a few minutes and try again.' },
  },
};

const de: Texts = {
  title: 'Ihre Dateien',
  checking: 'Ihr Link wird geprüft …',
  reference: 'Anfrage',
  validUntil: 'Gültig bis',
  codeHeading: 'Code eingeben',
  codeIntro: 'Wir haben Ihnen in einer zweiten E-Mail einen 8-stelligen Code geschickt. Geben Sie ihn ein, um Ihre Dateien zu sehen.',
  codeLabel: 'Code aus der E-Mail',
  codeHint: '8 Ziffern, zum Beispiel 1234 5678',
  codeSubmit: 'Dateien anzeigen',
  codeChecking: 'Der Code wird geprüft …',
  filesHeading: 'Dateien zum Herunterladen',
  filesIntro: 'Speichern Sie jede Datei auf diesem Gerät. Die Downloads funktionieren in diesem Browser-Tab, bis der Link abläuft.',
  download: 'Herunterladen',
  downloadAgain: 'Erneut herunterladen',
  progress: 'Fortschritt von {name}',
  downloading: '{name} wird heruntergeladen …',
  saved: '{name} wurde heruntergeladen.',
  tryAgain: 'Erneut versuchen',
  attemptsLeft: { one: 'Sie haben noch {count} Versuch.', other: 'Sie haben noch {count} Versuche.' },
  retryAfter: 'Bitte versuchen Sie es {when} erneut.',
  retryLater: 'Bitte warten Sie einige Minuten und versuchen Sie es dann erneut.',
  problems: {
    incomplete_link: {
      title: 'Dieser Link ist unvollständig',
      detail: 'Öffnen Sie den Link aus unserer E-Mail erneut. Wenn Sie ihn kopiert haben, achten Sie darauf, ihn vollständig zu kopieren.',
    },
    invalid_link: {
      title: 'Dieser Link funktioniert nicht',
      detail:
        'Vielleicht wurde er nur teilweise kopiert. Öffnen Sie den Link aus unserer E-Mail erneut. Funktioniert er weiterhin nicht, bitten Sie die Organisation, die ihn geschickt hat, um einen neuen.',
    },
    expired: {
      title: 'Dieser Link ist abgelaufen',
      detail: 'Ein Link gilt 24 Stunden, und nur der neueste funktioniert. Suchen Sie nach einer neueren E-Mail oder bitten Sie die Organisation, die ihn geschickt hat, um einen neuen Link.',
    },
    used: {
      title: 'Dieser Link wurde bereits verwendet',
      detail:
        'Der Code für diesen Link wurde bereits in einem anderen Browser oder Tab eingegeben; nur dort lassen sich die Dateien herunterladen. Wenn Sie das nicht waren oder die Dateien erneut brauchen, fordern Sie einen neuen Link an.',
    },
    locked: {
      title: 'Dieser Link ist gesperrt',
      detail: 'Es wurde zu oft ein falscher Code eingegeben, deshalb funktioniert der Link nicht mehr. Bitten Sie die Organisation, die ihn geschickt hat, um einen neuen Link.',
    },
    wrong_code: { title: 'Der Code stimmt nicht', detail: 'Prüfen Sie den Code in der zweiten E-Mail und geben Sie ihn erneut ein.' },
    malformed_code: { title: 'Der Code ist unvollständig', detail: 'Geben Sie die 8 Ziffern des Codes aus der zweiten E-Mail ein.' },
    too_many_tries: { title: 'Zu viele Versuche', detail: 'Der Dienst hat zu viele Anfragen von Ihrer Verbindung erhalten.' },
    session_ended: {
      title: 'Ihr Zugang ist beendet',
      detail: 'Die Dateien lassen sich bis zum Ablauf des Links in dem Browser-Tab herunterladen, in dem der Code eingegeben wurde. Fordern Sie einen neuen Link an, um sie erneut herunterzuladen.',
    },
    file_gone: { title: 'Diese Datei ist nicht mehr verfügbar', detail: 'Bitte wenden Sie sich an die Organisation, die Ihnen den Link geschickt hat.' },
    network: { title: 'Keine Verbindung', detail: 'Die Seite konnte den Dienst nicht erreichen. Prüfen Sie Ihre Internetverbindung und versuchen Sie es erneut.' },
    unavailable: { title: 'Etwas ist schiefgelaufen', detail: 'Der Dienst konnte gerade nicht antworten. Bitte warten Sie einige Minuten und versuchen Sie es erneut.' },
  },
};

const fr: Texts = {
  title: 'Vos fichiers',
  checking: 'Vérification de votre lien…',
  reference: 'Demande',
  validUntil: 'Valable jusqu’au',
  codeHeading: 'Saisissez votre code',
  codeIntro: 'Nous vous avons envoyé un second e-mail avec un code à 8 chiffres. Saisissez-le pour voir vos fichiers.',
  codeLabel: 'Code reçu par e-mail',
  codeHint: '8 chiffres, par exemple 1234 5678',
  codeSubmit: 'Afficher mes fichiers',
  codeChecking: 'Vérification du code…',
  filesHeading: 'Fichiers à télécharger',
  filesIntro: 'Enregistrez chaque fichier sur cet appareil. Les téléchargements fonctionnent dans cet onglet jusqu’à l’expiration du lien.',
  download: 'Télécharger',
  downloadAgain: 'Télécharger à nouveau',
  progress: 'Progression de {name}',
  downloading: 'Téléchargement de {name}…',
  saved: '{name} a été téléchargé.',
  tryAgain: 'Réessayer',
  attemptsLeft: { one: 'Il vous reste {count} essai.', other: 'Il vous reste {count} essais.' },
  retryAfter: 'Veuillez réessayer {when}.',
  retryLater: 'Veuillez patienter quelques minutes, puis réessayer.',
  problems: {
    incomplete_link: { title: 'Ce lien est incomplet', detail: 'Ouvrez à nouveau le lien de notre e-mail. Si vous l’avez copié, vérifiez que vous l’avez copié en entier.' },
    invalid_link: {
      title: 'Ce lien ne fonctionne pas',
      detail: 'Il a peut-être été copié en partie seulement. Ouvrez à nouveau le lien de notre e-mail. S’il ne fonctionne toujours pas, demandez-en un nouveau à l’organisme qui vous l’a envoyé.',
    },
    expired: {
      title: 'Ce lien a expiré',
      detail: 'Un lien est valable 24 heures, et seul le plus récent fonctionne. Cherchez un e-mail plus récent, ou demandez un nouveau lien à l’organisme qui vous l’a envoyé.',
    },
    used: {
      title: 'Ce lien a déjà été utilisé',
      detail:
        'Le code de ce lien a déjà été saisi dans un autre navigateur ou onglet, et les fichiers ne peuvent être téléchargés que là. Si ce n’était pas vous, ou si vous avez de nouveau besoin des fichiers, demandez un nouveau lien.',
    },
    locked: {
      title: 'Ce lien est bloqué',
      detail: 'Un code erroné a été saisi trop de fois, le lien ne fonctionne donc plus. Demandez un nouveau lien à l’organisme qui vous l’a envoyé.',
    },
    wrong_code: { title: 'Le code est incorrect', detail: 'Vérifiez le code dans le second e-mail et saisissez-le à nouveau.' },
    malformed_code: { title: 'Le code est incomplet', detail: 'Saisissez les 8 chiffres du code reçu dans le second e-mail.' },
    too_many_tries: { title: 'Trop de tentatives', detail: 'Le service a reçu trop de demandes depuis votre connexion.' },
    session_ended: {
      title: 'Votre accès a pris fin',
      detail: 'Les fichiers peuvent être téléchargés dans l’onglet où le code a été saisi, jusqu’à l’expiration du lien. Demandez un nouveau lien pour les télécharger à nouveau.',
    },
    file_gone: { title: 'Ce fichier n’est plus disponible', detail: 'Veuillez contacter l’organisme qui vous a envoyé le lien.' },
    network: { title: 'Pas de connexion', detail: 'La page n’a pas pu joindre le service. Vérifiez votre connexion Internet et réessayez.' },
    unavailable: { title: 'Un problème est survenu', detail: 'Le service n’a pas pu répondre pour le moment. Patientez quelques minutes et réessayez.' },
  },
};

const es: Texts = {
  title: 'Sus archivos',
  checking: 'Comprobando su enlace…',
  reference: 'Solicitud',
  validUntil: 'Válido hasta',
  codeHeading: 'Introduzca su código',
  codeIntro: 'Le hemos enviado un segundo correo electrónico con un código de 8 cifras. Introdúzcalo para ver sus archivos.',
  codeLabel: 'Código del correo electrónico',
  codeHint: '8 cifras, por ejemplo 1234 5678',
  codeSubmit: 'Ver mis archivos',
  codeChecking: 'Comprobando el código…',
  filesHeading: 'Archivos para descargar',
  filesIntro: 'Guarde cada archivo en este dispositivo. Las descargas funcionan en esta pestaña del navegador hasta que caduque el enlace.',
  download: 'Descargar',
  downloadAgain: 'Descargar de nuevo',
  progress: 'Progreso de {name}',
  downloading: 'Descargando {name}…',
  saved: '{name} se ha descargado.',
  tryAgain: 'Intentar de nuevo',
  attemptsLeft: { one: 'Le queda {count} intento.', other: 'Le quedan {count} intentos.' },
  retryAfter: 'Vuelva a intentarlo {when}.',
  retryLater: 'Espere unos minutos y vuelva a intentarlo.',
  problems: {
    incomplete_link: { title: 'Este enlace está incompleto', detail: 'Abra de nuevo el enlace de nuestro correo electrónico. Si lo copió, asegúrese de copiarlo entero.' },
    invalid_link: {
      title: 'Este enlace no funciona',
      detail: 'Puede que se haya copiado solo en parte. Abra de nuevo el enlace de nuestro correo. Si sigue sin funcionar, pida uno nuevo a la organización que se lo envió.',
    },
    expired: {
      title: 'Este enlace ha caducado',
      detail: 'Un enlace es válido durante 24 horas, y solo funciona el más reciente. Busque un correo más reciente o pida un enlace nuevo a la organización que se lo envió.',
    },
    used: {
      title: 'Este enlace ya se ha utilizado',
      detail:
        'El código de este enlace ya se introdujo en otro navegador o pestaña, y los archivos solo pueden descargarse allí. Si no fue usted, o necesita los archivos de nuevo, pida un enlace nuevo.',
    },
    locked: {
      title: 'Este enlace está bloqueado',
      detail: 'Se introdujo un código incorrecto demasiadas veces, por lo que el enlace ya no funciona. Pida un enlace nuevo a la organización que se lo envió.',
    },
    wrong_code: { title: 'El código no es correcto', detail: 'Compruebe el código del segundo correo e introdúzcalo de nuevo.' },
    malformed_code: { title: 'El código está incompleto', detail: 'Introduzca las 8 cifras del código del segundo correo.' },
    too_many_tries: { title: 'Demasiados intentos', detail: 'El servicio ha recibido demasiadas solicitudes desde su conexión.' },
    session_ended: {
      title: 'Su acceso ha finalizado',
      detail: 'Los archivos pueden descargarse en la pestaña donde se introdujo el código, hasta que caduque el enlace. Pida un enlace nuevo para descargarlos otra vez.',
    },
    file_gone: { title: 'Este archivo ya no está disponible', detail: 'Póngase en contacto con la organización que le envió el enlace.' },
    network: { title: 'Sin conexión', detail: 'La página no pudo conectar con el servicio. Compruebe su conexión a internet y vuelva a intentarlo.' },
    unavailable: { title: 'Algo ha fallado', detail: 'El servicio no ha podido responder en este momento. Espere unos minutos y vuelva a intentarlo.' },
  },
};

const pt: Texts = {
  title: 'Seus arquivos',
  checking: 'Verificando seu link…',
  reference: 'Solicitação',
  validUntil: 'Válido até',
  codeHeading: 'Digite seu código',
  codeIntro: 'Enviamos um segundo e-mail com um código de 8 dígitos. Digite-o para ver seus arquivos.',
  codeLabel: 'Código do e-mail',
  codeHint: '8 dígitos, por exemplo 1234 5678',
  codeSubmit: 'Ver meus arquivos',
  codeChecking: 'Verificando o código…',
  filesHeading: 'Arquivos para baixar',
  filesIntro: 'Salve cada arquivo neste dispositivo. Os downloads funcionam nesta aba do navegador até o link expirar.',
  download: 'Baixar',
  downloadAgain: 'Baixar novamente',
  progress: 'Progresso de {name}',
  downloading: 'Baixando {name}…',
  saved: '{name} foi baixado.',
  tryAgain: 'Tentar novamente',
  attemptsLeft: { one: 'Resta {count} tentativa.', other: 'Restam {count} tentativas.' },
  retryAfter: 'Tente novamente {when}.',
  retryLater: 'Aguarde alguns minutos e tente novamente.',
  problems: {
    incomplete_link: { title: 'Este link está incompleto', detail: 'Abra novamente o link do nosso e-mail. Se você o copiou, verifique se copiou o link inteiro.' },
    invalid_link: {
      title: 'Este link não funciona',
      detail: 'Talvez ele tenha sido copiado só em parte. Abra novamente o link do nosso e-mail. Se ainda não funcionar, peça um novo à organização que o enviou.',
    },
    expired: {
      title: 'Este link expirou',
      detail: 'Um link vale por 24 horas, e só o mais recente funciona. Procure um e-mail mais recente ou peça um novo link à organização que o enviou.',
    },
    used: {
      title: 'Este link já foi usado',
      detail: 'O código deste link já foi digitado em outro navegador ou aba, e os arquivos só podem ser baixados lá. Se não foi você, ou se precisar dos arquivos novamente, peça um novo link.',
    },
    locked: { title: 'Este link está bloqueado', detail: 'Um código errado foi digitado vezes demais, por isso o link não funciona mais. Peça um novo link à organização que o enviou.' },
    wrong_code: { title: 'O código não está correto', detail: 'Confira o código no segundo e-mail e digite-o novamente.' },
    malformed_code: { title: 'O código está incompleto', detail: 'Digite os 8 dígitos do código do segundo e-mail.' },
    too_many_tries: { title: 'Tentativas demais', detail: 'O serviço recebeu solicitações demais da sua conexão.' },
    session_ended: {
      title: 'Seu acesso terminou',
      detail: 'Os arquivos podem ser baixados na aba em que o código foi digitado, até o link expirar. Peça um novo link para baixá-los novamente.',
    },
    file_gone: { title: 'Este arquivo não está mais disponível', detail: 'Entre em contato com a organização que enviou o link.' },
    network: { title: 'Sem conexão', detail: 'A página não conseguiu acessar o serviço. Verifique sua conexão com a internet e tente novamente.' },
    unavailable: { title: 'Algo deu errado', detail: 'O serviço não conseguiu responder agora. Aguarde alguns minutos e tente novamente.' },
  },
};

const it: Texts = {
  title: 'I tuoi file',
  checking: 'Verifica del link in corso…',
  reference: 'Richiesta',
  validUntil: 'Valido fino al',
  codeHeading: 'Inserisci il codice',
  codeIntro: 'Ti abbiamo inviato una seconda email con un codice di 8 cifre. Inseriscilo per vedere i tuoi file.',
  codeLabel: 'Codice ricevuto via email',
  codeHint: '8 cifre, ad esempio 1234 5678',
  codeSubmit: 'Mostra i miei file',
  codeChecking: 'Verifica del codice in corso…',
  filesHeading: 'File da scaricare',
  filesIntro: 'Salva ogni file su questo dispositivo. I download funzionano in questa scheda del browser fino alla scadenza del link.',
  download: 'Scarica',
  downloadAgain: 'Scarica di nuovo',
  progress: 'Avanzamento di {name}',
  downloading: 'Download di {name} in corso…',
  saved: '{name} è stato scaricato.',
  tryAgain: 'Riprova',
  attemptsLeft: { one: 'Ti resta {count} tentativo.', other: 'Ti restano {count} tentativi.' },
  retryAfter: 'Riprova {when}.',
  retryLater: 'Attendi qualche minuto e riprova.',
  problems: {
    incomplete_link: { title: 'Questo link è incompleto', detail: 'Apri di nuovo il link della nostra email. Se lo hai copiato, assicurati di averlo copiato per intero.' },
    invalid_link: {
      title: 'Questo link non funziona',
      detail: 'Forse è stato copiato solo in parte. Apri di nuovo il link della nostra email. Se ancora non funziona, chiedine uno nuovo all’organizzazione che te lo ha inviato.',
    },
    expired: {
      title: 'Questo link è scaduto',
      detail: 'Un link vale 24 ore, e funziona solo il più recente. Cerca un’email più recente o chiedi un nuovo link all’organizzazione che te lo ha inviato.',
    },
    used: {
      title: 'Questo link è già stato usato',
      detail:
        'Il codice di questo link è già stato inserito in un altro browser o scheda, e i file si possono scaricare solo lì. Se non sei stato tu, o se ti servono di nuovo i file, chiedi un nuovo link.',
    },
    locked: {
      title: 'Questo link è bloccato',
      detail: 'È stato inserito un codice errato troppe volte, quindi il link non funziona più. Chiedi un nuovo link all’organizzazione che te lo ha inviato.',
    },
    wrong_code: { title: 'Il codice non è corretto', detail: 'Controlla il codice nella seconda email e inseriscilo di nuovo.' },
    malformed_code: { title: 'Il codice è incompleto', detail: 'Inserisci le 8 cifre del codice della seconda email.' },
    too_many_tries: { title: 'Troppi tentativi', detail: 'Il servizio ha ricevuto troppe richieste dalla tua connessione.' },
    session_ended: {
      title: 'Il tuo accesso è terminato',
      detail: 'I file si possono scaricare nella scheda in cui è stato inserito il codice, fino alla scadenza del link. Chiedi un nuovo link per scaricarli di nuovo.',
    },
    file_gone: { title: 'Questo file non è più disponibile', detail: 'Contatta l’organizzazione che ti ha inviato il link.' },
    network: { title: 'Nessuna connessione', detail: 'La pagina non è riuscita a raggiungere il servizio. Controlla la connessione a internet e riprova.' },
    unavailable: { title: 'Qualcosa è andato storto', detail: 'Il servizio non ha potuto rispondere in questo momento. Attendi qualche minuto e riprova.' },
  },
};

const nl: Texts = {
  title: 'Uw bestanden',
  checking: 'Uw link wordt gecontroleerd…',
  reference: 'Verzoek',
  validUntil: 'Geldig tot',
  codeHeading: 'Voer uw code in',
  codeIntro: 'We hebben u een tweede e-mail gestuurd met een code van 8 cijfers. Voer die in om uw bestanden te zien.',
  codeLabel: 'Code uit de e-mail',
  codeHint: '8 cijfers, bijvoorbeeld 1234 5678',
  codeSubmit: 'Mijn bestanden tonen',
  codeChecking: 'De code wordt gecontroleerd…',
  filesHeading: 'Bestanden om te downloaden',
  filesIntro: 'Sla elk bestand op dit apparaat op. De downloads werken in dit browsertabblad tot de link verloopt.',
  download: 'Downloaden',
  downloadAgain: 'Opnieuw downloaden',
  progress: 'Voortgang van {name}',
  downloading: '{name} wordt gedownload…',
  saved: '{name} is gedownload.',
  tryAgain: 'Opnieuw proberen',
  attemptsLeft: { one: 'U hebt nog {count} poging.', other: 'U hebt nog {count} pogingen.' },
  retryAfter: 'Probeer het {when} opnieuw.',
  retryLater: 'Wacht een paar minuten en probeer het opnieuw.',
  problems: {
    incomplete_link: { title: 'Deze link is onvolledig', detail: 'Open de link uit onze e-mail opnieuw. Hebt u hem gekopieerd, controleer dan of u hem helemaal hebt gekopieerd.' },
    invalid_link: {
      title: 'Deze link werkt niet',
      detail: 'Misschien is hij maar gedeeltelijk gekopieerd. Open de link uit onze e-mail opnieuw. Werkt hij nog steeds niet, vraag dan een nieuwe aan bij de organisatie die hem heeft gestuurd.',
    },
    expired: {
      title: 'Deze link is verlopen',
      detail: 'Een link is 24 uur geldig, en alleen de nieuwste werkt. Zoek naar een nieuwere e-mail of vraag een nieuwe link aan bij de organisatie die hem heeft gestuurd.',
    },
    used: {
      title: 'Deze link is al gebruikt',
      detail:
        'De code van deze link is al ingevoerd in een andere browser of een ander tabblad, en alleen daar kunnen de bestanden worden gedownload. Was u dat niet, of hebt u de bestanden opnieuw nodig, vraag dan een nieuwe link aan.',
    },
    locked: {
      title: 'Deze link is geblokkeerd',
      detail: 'Er is te vaak een verkeerde code ingevoerd, daarom werkt de link niet meer. Vraag een nieuwe link aan bij de organisatie die hem heeft gestuurd.',
    },
    wrong_code: { title: 'De code klopt niet', detail: 'Controleer de code in de tweede e-mail en voer hem opnieuw in.' },
    malformed_code: { title: 'De code is onvolledig', detail: 'Voer de 8 cijfers van de code uit de tweede e-mail in.' },
    too_many_tries: { title: 'Te veel pogingen', detail: 'De dienst heeft te veel verzoeken van uw verbinding ontvangen.' },
    session_ended: {
      title: 'Uw toegang is beëindigd',
      detail: 'De bestanden kunnen worden gedownload in het tabblad waar de code is ingevoerd, tot de link verloopt. Vraag een nieuwe link aan om ze opnieuw te downloaden.',
    },
    file_gone: { title: 'Dit bestand is niet meer beschikbaar', detail: 'Neem contact op met de organisatie die u de link heeft gestuurd.' },
    network: { title: 'Geen verbinding', detail: 'De pagina kon de dienst niet bereiken. Controleer uw internetverbinding en probeer het opnieuw.' },
    unavailable: { title: 'Er ging iets mis', detail: 'De dienst kon nu niet antwoorden. Wacht een paar minuten en probeer het opnieuw.' },
  },
};

export const TEXTS: Readonly<Record<PortalLocale, Texts>> = { en, de, fr, es, pt, it, nl };
